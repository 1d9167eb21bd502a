// Decoders for content a human reader does not see: invisible Unicode and encoded blobs.
// Detectors scan what these return as if it were plain text in the same place.
import { gunzipSync, inflateSync } from 'node:zlib';

/** Unicode tag characters U+E0020..U+E007E mirror ASCII; attackers spell hidden prompts with them. */
export function decodeUnicodeTags(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) out += String.fromCharCode(cp - 0xe0000);
  }
  return out;
}

// Zero-width and other invisible formatting characters (not counting the BOM at offset 0).
export const INVISIBLE_RE = /[\u200b-\u200f\u2060-\u2064\u180e\ufeff\u00ad]/g;
// Bidirectional controls that reorder how text is shown (Trojan Source).
export const BIDI_RE = /[\u202a-\u202e\u2066-\u2069]/g;
/** One bidi control anywhere in a string (BIDI_RE is global, for replacing and counting). */
export const BIDI_CONTROL = new RegExp(BIDI_RE.source);
// Right-to-left scripts (Hebrew, Arabic and their presentation forms): text that may carry bidi marks for display.
export const RTL_SCRIPT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
export const TAG_RE = /[\u{e0000}-\u{e007f}]/gu;

export interface EncodedBlob {
  /** Offset of the encoded text in the input. */
  index: number;
  encoded: string;
  encoding: 'base64' | 'hex';
  /** Decoded bytes as text (latin1 for non-UTF-8). */
  decoded: string;
  /** True when the decoded bytes are mostly printable text (so it is prose or code, not an image or key). */
  printable: boolean;
}

/** Character classes of the finders below, by UTF-16 code unit (none above 127), so a lookup needs no range check. */
const ALNUM = 1;
const STD = 2; // + and /
const URL = 4; // _ and -
const PAD = 8; // =
const HEX = 16;
const BASE64 = ALNUM | STD | URL | PAD;
const CLASS = Uint8Array.from({ length: 0x10000 }, (_, c) =>
  c < 128 ? asciiClass(String.fromCharCode(c)) : 0,
);

function asciiClass(ch: string): number {
  return (
    (/[A-Za-z0-9]/.test(ch) ? ALNUM : 0) |
    (/[+/]/.test(ch) ? STD : 0) |
    (/[_-]/.test(ch) ? URL : 0) |
    (ch === '=' ? PAD : 0) |
    (/[0-9A-Fa-f]/.test(ch) ? HEX : 0)
  );
}

/** Class of the code unit at `i`; none before the start or past the end. */
function classAt(text: string, i: number): number {
  return i >= 0 && i < text.length ? CLASS[text.charCodeAt(i)]! : 0;
}

export interface Run {
  index: number;
  end: number;
}

/**
 * The spans `(?<![A-Za-z0-9+/=_-])([A-Za-z0-9+/]{24,}={0,2}|[A-Za-z0-9_-]{24,}={0,2})(?![A-Za-z0-9+/=_-])`
 * matches, in one pass instead of the engine's look-behind at every offset (once the scan's costliest
 * expression). The look-around makes every match a whole run of base64 characters (letters, digits, `+/_-=`):
 * at least 24 of one alphabet's characters (`+/` or `_-`, not both), then at most two `=`.
 */
export function base64Runs(text: string): Run[] {
  const runs: Run[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    if (!(CLASS[text.charCodeAt(i)]! & BASE64)) continue;
    const start = i;
    let seen = 0;
    let pads = 0;
    let padInside = false;
    for (let c = CLASS[text.charCodeAt(i)]!; c & BASE64; c = ++i < n ? CLASS[text.charCodeAt(i)]! : 0) {
      if (c & PAD) pads++;
      else {
        padInside ||= pads > 0;
        pads = 0;
        seen |= c;
      }
    }
    const body = i - start - pads;
    if (body >= 24 && pads <= 2 && !padInside && (seen & (STD | URL)) !== (STD | URL))
      runs.push({ index: start, end: i });
  }
  return runs;
}

/**
 * The spans `(?<![0-9A-Fa-fx\\])((?:[0-9A-Fa-f]{2}){16,}|(?:\\x[0-9A-Fa-f]{2}){8,})(?![0-9A-Fa-f])` matches, in
 * one pass: an even run of at least 32 hex digits, or at least eight `\xHH` escapes, neither just after a hex
 * digit, `x` or `\`, nor just before a hex digit (the escapes then stop one short, as the expression backs off
 * to the last `\` it can end before).
 */
export function hexRuns(text: string): Run[] {
  const runs: Run[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const digit = CLASS[c]! & HEX;
    if (!digit && c !== 0x5c) continue;
    const before = i > 0 ? text.charCodeAt(i - 1) : 0;
    if (CLASS[before]! & HEX || before === 0x78 || before === 0x5c) continue;
    const end = digit ? hexDigitsEnd(text, i) : escapesEnd(text, i);
    if (end > i) {
      runs.push({ index: i, end });
      i = end - 1;
    }
  }
  return runs;
}

/** End of an even run of 32 or more hex digits at `i` with no hex digit after it, else `i`. */
function hexDigitsEnd(text: string, i: number): number {
  let end = i;
  while (classAt(text, end) & HEX) end++;
  return (end - i) % 2 === 0 && end - i >= 32 ? end : i;
}

/** End of eight or more `\xHH` at `i` with no hex digit after them, else `i`. */
function escapesEnd(text: string, i: number): number {
  let end = i;
  while (
    text.charCodeAt(end) === 0x5c &&
    text.charCodeAt(end + 1) === 0x78 &&
    classAt(text, end + 2) & HEX &&
    classAt(text, end + 3) & HEX
  )
    end += 4;
  if (classAt(text, end) & HEX) end -= 4; // `\x41\x4142`: the last escape would run into more digits
  return end - i >= 32 ? end : i;
}

function printableRatio(s: string): number {
  if (s.length === 0) return 0;
  let ok = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 9 || c === 10 || c === 13 || (c >= 32 && c < 127)) ok++;
  }
  return ok / s.length;
}

/** Share of decoded UTF-8 text that is printable, any script: no control characters, no invalid sequences. */
export function printableShare(text: string): number {
  if (text.length === 0) return 0;
  let ok = 0;
  let all = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    all++;
    if (c === 9 || c === 10 || c === 13 || (c >= 32 && c !== 127 && c !== 0xfffd && (c < 128 || c >= 160)))
      ok++;
  }
  return ok / all;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes as text: UTF-8 when they are valid UTF-8 (an instruction in Chinese, or one carrying invisible tag
 * characters, is text), else latin1, one character per byte.
 */
function bytesAsText(bytes: Buffer): { text: string; printable: boolean } {
  try {
    const text = UTF8.decode(bytes);
    if (/[\u0080-\uffff]/.test(text)) return { text, printable: printableShare(text) > 0.9 };
  } catch {
    // not UTF-8: binary, or text in a single-byte encoding
  }
  const text = bytes.toString('latin1');
  return { text, printable: printableRatio(text) > 0.9 };
}

function decodeBase64(s: string): Buffer | null {
  const normal = s.replace(/-/g, '+').replace(/_/g, '/');
  if (normal.length % 4 === 1) return null;
  return Buffer.from(normal, 'base64');
}

/** Finds base64 and hex runs long enough to hide a command or a sentence, and decodes them. */
export function findEncodedBlobs(text: string, limit = 200): EncodedBlob[] {
  const blobs: EncodedBlob[] = [];
  for (const run of base64Runs(text)) {
    if (blobs.length >= limit) break;
    const encoded = text.slice(run.index, run.end);
    // Identifiers and paths are long runs of letters too; real base64 mixes cases and digits.
    if (!/[A-Z]/.test(encoded) || !/[a-z]/.test(encoded) || !/[0-9+/]/.test(encoded)) continue;
    const bytes = decodeBase64(encoded);
    if (bytes === null) continue;
    const { text: decoded, printable } = bytesAsText(bytes);
    blobs.push({ index: run.index, encoded, encoding: 'base64', decoded, printable });
  }
  for (const run of hexRuns(text)) {
    if (blobs.length >= limit) break;
    const encoded = text.slice(run.index, run.end);
    const { text: decoded, printable } = bytesAsText(Buffer.from(encoded.replace(/\\x/g, ''), 'hex'));
    blobs.push({ index: run.index, encoded, encoding: 'hex', decoded, printable });
  }
  return blobs;
}

/** Bytes that are UTF-16LE text (PowerShell's [Text.Encoding]::Unicode): mostly zero high bytes. */
function looksUtf16le(bytes: Buffer): boolean {
  if (bytes.length < 4 || bytes.length % 2 !== 0) return false;
  let zeros = 0;
  for (let i = 1; i < bytes.length; i += 2) if (bytes[i] === 0) zeros++;
  return zeros / (bytes.length / 2) > 0.9;
}

/**
 * A string literal that is a whole encoded script (base64 in UTF-8 or UTF-16LE, or hex, optionally with
 * `0x`/comma/dash separators), decoded to text; null when it is not printable text once decoded.
 */
export function decodeScriptLiteral(literal: string): string | null {
  const s = literal.trim();
  if (s.length < 24) return null;
  let bytes: Buffer | null = null;
  const hex = s.replace(/0x|[\s,:-]/gi, '');
  if (/^([0-9a-f]{2})+$/i.test(hex) && hex.length >= 24) bytes = Buffer.from(hex, 'hex');
  else if (/^[A-Za-z0-9+/\s]+={0,2}$/.test(s) && s.replace(/\s+/g, '').length % 4 === 0)
    bytes = Buffer.from(s.replace(/\s+/g, ''), 'base64');
  if (!bytes || bytes.length === 0) return null;
  const text = looksUtf16le(bytes) ? bytes.toString('utf16le') : bytes.toString('utf8');
  return printableRatio(text.replace(/[\u0080-\uffff]/g, 'a')) > 0.95 ? text : null;
}

/**
 * A zlib or gzip stream inflated, recognised by its header (a raw deflate stream has none, and trying one costs an
 * exception); null when the bytes are neither or do not inflate within `maxOutputLength`.
 */
export function inflateStream(bytes: Buffer, maxOutputLength: number): Buffer | null {
  const zlib = bytes.length > 2 && bytes[0] === 0x78 && ((bytes[0] << 8) | bytes[1]!) % 31 === 0;
  const gzip = bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (!zlib && !gzip) return null;
  try {
    return (zlib ? inflateSync : gunzipSync)(bytes, { maxOutputLength });
  } catch {
    return null;
  }
}
