import { registrableDomain } from '../core/hosts.js';

// The forms a stolen token takes on the wire: raw, hex, base64 (standard and URL-safe), base32, each at
// every byte alignment so a token embedded in a larger encoded blob (a whole file, base64'd) still matches.
// Matching is case-insensitive where the encoding is (hex, base32, DNS names).

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/**
 * The part of `encode(prefix + token)` that depends on token bytes only, for every prefix length below the
 * encoding's group size: `group` input bytes become `chars` output characters.
 */
function alignedNeedles(
  token: Buffer,
  group: number,
  chars: number,
  encode: (b: Buffer) => string,
): string[] {
  const out: string[] = [];
  for (let k = 0; k < group; k++) {
    const encoded = encode(Buffer.concat([Buffer.alloc(k), token]));
    const start = Math.ceil(k / group) * chars;
    const end = Math.floor((k + token.length) / group) * chars;
    if (end - start >= 12) out.push(encoded.slice(start, end));
  }
  return out;
}

export interface Needle {
  encoding: 'raw' | 'hex' | 'base64' | 'base64url' | 'base32';
  text: string;
  caseInsensitive: boolean;
}

export function tokenNeedles(token: string): Needle[] {
  const bytes = Buffer.from(token, 'utf8');
  const needles: Needle[] = [
    { encoding: 'raw', text: token, caseInsensitive: false },
    { encoding: 'hex', text: bytes.toString('hex'), caseInsensitive: true },
  ];
  for (const text of alignedNeedles(bytes, 3, 4, (b) => b.toString('base64'))) {
    needles.push({ encoding: 'base64', text, caseInsensitive: false });
    const url = text.replaceAll('+', '-').replaceAll('/', '_');
    if (url !== text) needles.push({ encoding: 'base64url', text: url, caseInsensitive: false });
  }
  for (const text of alignedNeedles(bytes, 5, 8, base32))
    needles.push({ encoding: 'base32', text, caseInsensitive: true });
  return needles;
}

/** The first needle found in `haystack`, or null. `relaxCase` compares every encoding case-insensitively (DNS). */
export function findNeedle(haystack: string, needles: Needle[], relaxCase = false): Needle | null {
  const lower = haystack.toLowerCase();
  for (const needle of needles) {
    const ci = needle.caseInsensitive || relaxCase;
    if ((ci ? lower : haystack).includes(ci ? needle.text.toLowerCase() : needle.text)) return needle;
  }
  return null;
}

/** Labels every name in `names` ends with (at least the last two: the parent domain). */
function commonSuffix(names: string[][]): number {
  const shortest = Math.min(...names.map((n) => n.length));
  let k = 2;
  while (k < shortest && names.every((n) => n[n.length - 1 - k] === names[0]![names[0]!.length - 1 - k])) k++;
  return k;
}

/**
 * Strings an exfiltrating script may have spread over DNS queries: for each parent (registrable) domain,
 * the labels before the suffix all its queries share, concatenated in the order sent; also without short
 * numeric labels (chunk counters) and without hyphens (some encoders pad with them). Repeats (retries, A
 * then AAAA) count once.
 */
export function dnsExfilStrings(names: string[]): string[] {
  const groups = new Map<string, string[][]>();
  for (const name of new Set(names.map((n) => n.toLowerCase().replace(/\.$/, '')))) {
    const labels = name.split('.');
    if (labels.length < 3) continue;
    const parent = registrableDomain(name);
    if (parent === name) continue;
    const list = groups.get(parent) ?? [];
    list.push(labels);
    groups.set(parent, list);
  }
  const out: string[] = [];
  for (const [parent, queries] of groups) {
    const suffix = queries.length > 1 ? commonSuffix(queries) : parent.split('.').length;
    const leading = queries.map((q) => q.slice(0, q.length - suffix));
    const all = leading.map((q) => q.join('')).join('');
    const noCounters = leading.map((q) => q.filter((l) => !/^\d{1,5}$/.test(l)).join('')).join('');
    out.push(all, noCounters, noCounters.replaceAll('-', ''));
  }
  return out;
}
