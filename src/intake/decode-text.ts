// Turns file bytes into text for analysis, or decides they are binary. Hostile files mix text with NUL
// bytes or invalid UTF-8 to slip past scanners, so text with a few odd bytes stays text (and is reported)
// while content that is mostly non-text is binary.

export interface DecodedText {
  /** Null when the bytes are binary. */
  text: string | null;
  invalidUtf8: boolean;
  nulBytes: boolean;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
}

const SAMPLE_BYTES = 8192;
/** Share of control bytes (or invalid UTF-8) in the sample above which content is binary. */
const BINARY_SHARE = 0.1;

function isControl(byte: number): boolean {
  return byte < 0x20 ? byte !== 9 && byte !== 10 && byte !== 12 && byte !== 13 && byte !== 27 : byte === 0x7f;
}

function utf16Encoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

function decodeUtf8(bytes: Uint8Array, truncated: boolean): { text: string; invalid: boolean } {
  // stream: true drops a multi-byte sequence cut at the read limit instead of turning it into U+FFFD.
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated }),
      invalid: false,
    };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes, { stream: truncated }), invalid: true };
  }
}

/**
 * Decodes `bytes` (the first bytes of a file; `truncated` when the file goes on). `expectsText` says the
 * file name promised text, which keeps a text file with stray NUL bytes readable for the scanner.
 */
export function decodeText(bytes: Uint8Array, truncated: boolean, expectsText: boolean): DecodedText {
  const utf16 = utf16Encoding(bytes);
  if (utf16) {
    // TextDecoder has no utf-16be; swap byte pairs and decode as little-endian.
    const body = utf16 === 'utf-16be' ? swapPairs(bytes) : bytes;
    const text = new TextDecoder('utf-16le').decode(body, { stream: truncated });
    return { text, invalidUtf8: false, nulBytes: text.includes('\0'), encoding: utf16 };
  }
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  // Indexed loops: this runs over every file of every skill, and iterators cost several times more.
  let controls = 0;
  let nul = false;
  for (let i = 0; i < sample.length; i++) {
    const byte = sample[i]!;
    if (byte === 0) nul = true;
    if (isControl(byte)) controls++;
  }
  const binaryByControls = sample.length > 0 && controls / sample.length > BINARY_SHARE;
  if (binaryByControls || (nul && !expectsText)) {
    return { text: null, invalidUtf8: false, nulBytes: nul, encoding: 'utf-8' };
  }
  const sampleText = new TextDecoder('utf-8').decode(sample, { stream: true });
  if (replacementShare(sampleText) > BINARY_SHARE * 3) {
    return { text: null, invalidUtf8: true, nulBytes: nul, encoding: 'utf-8' };
  }
  const { text, invalid } = decodeUtf8(bytes, truncated);
  return { text, invalidUtf8: invalid, nulBytes: nul || text.includes('\0'), encoding: 'utf-8' };
}

/** Share of U+FFFD in `text` (0 for empty text). */
function replacementShare(text: string): number {
  if (text.length === 0) return 0;
  // Most text has none: one native search instead of a walk over every code point.
  let at = text.indexOf('\ufffd');
  if (at < 0) return 0;
  let replaced = 0;
  for (; at >= 0; at = text.indexOf('\ufffd', at + 1)) replaced++;
  // Over UTF-16 code units, as the share has always been measured.
  return replaced / text.length;
}

function swapPairs(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length - (bytes.length % 2));
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    out[i] = bytes[i + 1]!;
    out[i + 1] = bytes[i]!;
  }
  return out;
}
