import { inflateStream, printableShare } from './decode.js';

// Constant decode chains in a snippet. A one-liner that prints "installation steps" hides them behind more
// than base64: `zlib.decompress(base64.b64decode('…'))`, bytes XORed with a constant key, base85, rot13, a
// reversed string, a list of character codes. The snippet's text says which operations it applies; this module
// applies those operations, in the orders such one-liners use, to the snippet's long constants, and keeps what
// comes out as readable text. It evaluates nothing the snippet wrote: only a fixed set of decoders runs.

type Bytes = Buffer;
interface Op {
  name: string;
  /** One operation of each kind per chain: one-liners decode one text encoding, XOR with one key. */
  kind: 'text' | 'zlib' | 'xor' | 'shift' | 'rot13' | 'reverse';
  apply(b: Bytes): Bytes | null;
}

const B85 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';

/** Groups of five base-85 digits to four bytes; a short last group is padded with the highest digit. */
function radix85(s: string, digit: (ch: string) => number, pad: string): Bytes | null {
  const out: number[] = [];
  for (let i = 0; i < s.length; i += 5) {
    let n = 0;
    for (const ch of s.slice(i, i + 5).padEnd(5, pad)) {
      const v = digit(ch);
      if (v < 0 || v > 84) return null;
      n = n * 85 + v;
    }
    if (n > 0xffffffff) return null;
    const bytes = [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
    out.push(...bytes.slice(0, Math.min(4, s.length - i - 1)));
  }
  return Buffer.from(out);
}

/** RFC 1924 base85 (Python's b85decode). */
const base85 = (b: Bytes): Bytes | null =>
  radix85(b.toString('latin1').replace(/\s+/g, ''), (ch) => B85.indexOf(ch), '~');

/** Ascii85 (Python's a85decode, with or without the <~ ~> frame). */
const ascii85 = (b: Bytes): Bytes | null =>
  radix85(
    b
      .toString('latin1')
      .replace(/^<~|~>$/g, '')
      .replace(/\s+/g, '')
      .replace(/z/g, '!!!!!'),
    (ch) => ch.charCodeAt(0) - 33,
    'u',
  );

function base32(b: Bytes): Bytes | null {
  const s = b.toString('latin1').replace(/=+$/, '').toUpperCase();
  if (!/^[A-Z2-7]+$/.test(s)) return null;
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of s) {
    value = (value << 5) | 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

function base64(b: Bytes): Bytes | null {
  const s = b.toString('latin1').replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(s) || s.length % 4 === 1) return null;
  return Buffer.from(s, 'base64');
}

function hex(b: Bytes): Bytes | null {
  const s = b.toString('latin1').replace(/\\x|0x|[\s,:]/gi, '');
  return /^(?:[0-9a-f]{2})+$/i.test(s) ? Buffer.from(s, 'hex') : null;
}

const inflate = (b: Bytes): Bytes | null => inflateStream(b, 1 << 20);

const rot13 = (b: Bytes): Bytes =>
  Buffer.from(
    b.toString('latin1').replace(/[a-z]/gi, (c) => {
      const base = c <= 'Z' ? 65 : 97;
      return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
    }),
    'latin1',
  );

const xorWith =
  (key: Bytes) =>
  (b: Bytes): Bytes =>
    Buffer.from(b.map((c, i) => c ^ key[i % key.length]!));

// The operations a snippet names, by the words that call them.
const DECODERS: [RegExp, Op][] = [
  [
    /b64decode|base64\s+(?:-d|--decode|-D)\b|\batob\s*\(|['"]base64['"]|FromBase64String|base64\.decode/i,
    { name: 'base64', kind: 'text', apply: base64 },
  ],
  [/b85decode/, { name: 'base85', kind: 'text', apply: base85 }],
  [/a85decode/, { name: 'ascii85', kind: 'text', apply: ascii85 }],
  [/b32decode|base32\s+(?:-d|--decode)/i, { name: 'base32', kind: 'text', apply: base32 }],
  [/unhexlify|fromhex|xxd\s+-r|['"]hex['"]/i, { name: 'hex', kind: 'text', apply: hex }],
  [/zlib|gzip|inflate|gunzip|zcat|decompress/i, { name: 'zlib', kind: 'zlib', apply: inflate }],
  [
    /rot_?13|\btr\s+['"]?(?:A-Za-z|a-zA-Z)['"]?\s+['"]?(?:N-ZA-Mn-za-m|n-za-mN-ZA-M)/i,
    { name: 'rot13', kind: 'rot13', apply: rot13 },
  ],
  [
    /\[\s*::\s*-1\s*\]|\.reverse\s*\(\s*\)|\|\s*rev\b/,
    { name: 'reverse', kind: 'reverse', apply: (b) => Buffer.from(b).reverse() },
  ],
];

const XOR_NUMBER = /\^\s*(0x[0-9a-f]{1,2}|\d{1,3})\b|\b(0x[0-9a-f]{1,2}|\d{1,3})\s*\^/gi;
// A short constant assigned to a name (`key = 'k3y'`, `const k='s3cr3t'`) in a snippet that XORs.
const KEY_STRING = /\b\w+\s*=\s*b?(['"])([^'"\n]{1,32})\1/g;

function xorOps(code: string): Op[] {
  if (!/\^/.test(code)) return [];
  const keys = new Map<string, Bytes>();
  for (const m of code.matchAll(XOR_NUMBER)) {
    const n = Number(m[1] ?? m[2]);
    if (n > 0 && n < 256) keys.set(`0x${n.toString(16)}`, Buffer.from([n]));
  }
  for (const m of code.matchAll(KEY_STRING)) keys.set(JSON.stringify(m[2]), Buffer.from(m[2]!, 'latin1'));
  return [...keys]
    .slice(0, 6)
    .map(([name, key]) => ({ name: `XOR ${name}`, kind: 'xor' as const, apply: xorWith(key) }));
}

// A character code moved by a constant before it becomes a character (`chr(c - 7)`, `chr(ord(ch) + 3)`,
// `String.fromCharCode(c - 7)`) or a byte (`bytes(c - 7 for c in [...])`, `.map((c) => c - 7)`): a Caesar shift
// of the codes, as common in one-liners as a XOR.
// `needs`: what every match of a form holds, tested first where the form is costly (the comprehension form
// starts at every word, so on code without a `7 for` it is not run at all).
const SHIFTS: readonly { re: RegExp; needs?: RegExp }[] = [
  { re: /\b(?:chr|fromCharCode)\s*\(\s*(?:ord\s*\(\s*)?[\w.]+(?:\[\w+\])?\s*\)?\s*([+-])\s*(\d{1,3})\s*\)/g },
  { re: /\b\w+\s*([+-])\s*(\d{1,3})\s+for\s+\w+\s+in\b/g, needs: /\d\s+for\s/ },
  { re: /=>\s*\w+\s*([+-])\s*(\d{1,3})\s*\)/g },
];

function shiftOps(code: string): Op[] {
  const shifts = new Map<string, number>();
  for (const { re, needs } of SHIFTS) {
    if (needs && !needs.test(code)) continue;
    for (const m of code.matchAll(re)) {
      const n = Number(m[2]);
      // The code adds n to each stored code to get the character: decoding adds it too.
      if (n > 0 && n < 256) shifts.set(`${m[1]}${n}`, m[1] === '+' ? n : 256 - n);
    }
  }
  return [...shifts].slice(0, 6).map(([name, by]) => ({
    name: `shift ${name}`,
    kind: 'shift' as const,
    apply: (b: Bytes) => Buffer.from(b.map((c) => (c + by) & 255)),
  }));
}

// One expression per quote character: a constant in single quotes inside a `python3 -c "…"` is found too.
// Quotes pair left to right, short literals included, so a key in quotes does not shift the pairing.
const STRING_LITERALS = ["'", '"', '`'].map((q) => new RegExp(`${q}((?:[^${q}\\\\\\n]|\\\\.)*)${q}`, 'g'));
const MIN_CONSTANT = 16;
const CODE_LIST = /\[\s*((?:0x[0-9a-f]{1,2}|\d{1,3})(?:\s*,\s*(?:0x[0-9a-f]{1,2}|\d{1,3})){7,})\s*,?\s*\]/gi;
const SHELL_WORD = /(?:^|[\s|;(])(?:echo|printf)\s+(?:-[ne]+\s+)?([A-Za-z0-9+/=_-]{16,})(?=\s|\||$)/gm;

interface Constant {
  index: number;
  text: string;
  bytes: Bytes;
}

function constants(code: string): Constant[] {
  const out: Constant[] = [];
  for (const re of STRING_LITERALS)
    for (const m of code.matchAll(re))
      if (m[1]!.length >= MIN_CONSTANT)
        out.push({ index: m.index! + 1, text: m[1]!, bytes: Buffer.from(m[1]!, 'latin1') });
  for (const m of code.matchAll(SHELL_WORD)) {
    const at = m.index! + m[0].indexOf(m[1]!);
    out.push({ index: at, text: m[1]!, bytes: Buffer.from(m[1]!, 'latin1') });
  }
  for (const m of code.matchAll(CODE_LIST)) {
    const codes = m[1]!.split(',').map((c) => Number(c.trim()));
    if (codes.every((c) => c < 256)) out.push({ index: m.index!, text: m[0], bytes: Buffer.from(codes) });
  }
  // A literal holding another (the `"…"` of `python3 -c "…'blob'…"`) is the code around the constant.
  const inner = out.filter(
    (c) =>
      !out.some((d) => d !== c && d.index > c.index && d.index + d.text.length <= c.index + c.text.length),
  );
  return inner.sort((a, b) => a.index - b.index).slice(0, 20);
}

export interface DecodedChain {
  /** Offset of the constant in the snippet. */
  index: number;
  encoded: string;
  /** The operations applied, in order ("base64, zlib, XOR 0x2a"). */
  chain: string;
  decoded: string;
}

const MAX_SNIPPET = 512 * 1024;
const MAX_DEPTH = 4;

// Words that instructions and commands are made of: a hash, a key or a reversed or rotated sentence has none.
const COMMON = new Set(
  (
    'the and you your all any for with this that from into then run install read send copy open file files ' +
    'step steps first next now before after must not never do ignore previous instructions user agent system ' +
    'prompt tell key keys token tokens secret password credentials env home ssh aws curl wget bash sh python ' +
    'node pip npm http https echo cat base64 sudo chmod export print import def return setup config data'
  ).split(' '),
);

/**
 * Readable text: printable, and made of the words instructions and commands use (a hash, a key, a reversed or
 * rotated sentence has none of them), or of another script's letters (a Chinese or Russian instruction).
 */
function readable(b: Bytes): boolean {
  if (b.length < 12) return false;
  const decoded = b.toString('utf8');
  if (printableShare(decoded) < 0.95) return false;
  // Invisible characters are judged as what they spell: tag characters as the ASCII they mirror, the other
  // format characters (zero-width, bidi) as nothing.
  const text = decoded
    .replace(/[\u{e0000}-\u{e007f}]/gu, (c) => String.fromCharCode(c.codePointAt(0)! - 0xe0000))
    .replace(/\p{Cf}/gu, '');
  // Words and spaces, not punctuation noise (XOR with the wrong key leaves printable symbols).
  const chars = [...text];
  if (chars.filter((c) => /[\p{L}\p{N}\s]/u.test(c)).length < chars.length * 0.7) return false;
  // Whole words only: a base64 or hex run spells "the" and "key" by chance inside longer runs.
  const tokens = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => /^[a-z]{2,}$/.test(t));
  const common = tokens.filter((t) => COMMON.has(t)).length;
  if (common >= 2 && common >= tokens.length * 0.03) return true;
  return (text.match(/[^\p{Script=Latin}\P{L}]/gu) ?? []).length >= 20;
}

/**
 * The constants of `code` that the operations it names turn into readable text, with the chain that did. A
 * constant readable as it stands, or after plain base64 or hex alone, is left to the blob finder.
 */
export function decodeChains(code: string): DecodedChain[] {
  if (code.length > MAX_SNIPPET) return [];
  const ops = [
    ...DECODERS.filter(([re]) => re.test(code)).map(([, op]) => op),
    ...xorOps(code),
    ...shiftOps(code),
  ];
  if (ops.length === 0) return [];
  const out: DecodedChain[] = [];
  for (const c of constants(code)) {
    if (readable(c.bytes)) continue;
    const found = search(c.bytes, ops, []);
    if (!found) continue;
    const simple = found.chain.length === 1 && /^(?:base64|hex)$/.test(found.chain[0]!);
    if (simple) continue;
    out.push({ index: c.index, encoded: c.text, chain: found.chain.join(', '), decoded: found.text });
  }
  return out;
}

function search(
  b: Bytes,
  ops: readonly Op[],
  chain: readonly Op[],
): { chain: string[]; text: string } | null {
  if (chain.length > 0 && readable(b)) return { chain: chain.map((o) => o.name), text: b.toString('utf8') };
  if (chain.length >= MAX_DEPTH) return null;
  for (const op of ops) {
    if (chain.some((o) => o.kind === op.kind)) continue;
    const next = op.apply(b);
    if (!next || next.length < 12) continue;
    const found = search(next, ops, [...chain, op]);
    if (found) return found;
  }
  return null;
}
