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

const BASE64_RE =
  /(?<![A-Za-z0-9+/=_-])([A-Za-z0-9+/]{24,}={0,2}|[A-Za-z0-9_-]{24,}={0,2})(?![A-Za-z0-9+/=_-])/g;
const HEX_RE = /(?<![0-9A-Fa-fx\\])((?:[0-9A-Fa-f]{2}){16,}|(?:\\x[0-9A-Fa-f]{2}){8,})(?![0-9A-Fa-f])/g;

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
  for (const m of text.matchAll(BASE64_RE)) {
    if (blobs.length >= limit) break;
    const encoded = m[1]!;
    // Identifiers and paths are long runs of letters too; real base64 mixes cases and digits.
    if (!/[A-Z]/.test(encoded) || !/[a-z]/.test(encoded) || !/[0-9+/]/.test(encoded)) continue;
    const bytes = decodeBase64(encoded);
    if (bytes === null) continue;
    const { text, printable } = bytesAsText(bytes);
    blobs.push({ index: m.index!, encoded, encoding: 'base64', decoded: text, printable });
  }
  for (const m of text.matchAll(HEX_RE)) {
    if (blobs.length >= limit) break;
    const encoded = m[1]!;
    const { text, printable } = bytesAsText(Buffer.from(encoded.replace(/\\x/g, ''), 'hex'));
    blobs.push({ index: m.index!, encoded, encoding: 'hex', decoded: text, printable });
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
