import { BIDI_RE, INVISIBLE_RE, TAG_RE } from '../decode.js';
import { tableAsRead } from './prose-tables.js';

// Prose as the rules read it: invisible characters dropped, emphasis and code marks removed, look-alike
// letters folded to ASCII, whitespace collapsed, while every character keeps its offset in the file so a
// match maps back to exact lines and quoted text.

export interface NormalText {
  text: string;
  /** File offset of each character of `text`. */
  map: Int32Array;
  /** 1 where the character sat inside inline code (between backticks). */
  code: Uint8Array;
  /** 1 where invisible characters were dropped right before this character. */
  evasive: Uint8Array;
}

// Cyrillic and Greek letters that look like Latin ones, used to slip words past filters.
const CONFUSABLES: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ɡ: 'g',
  һ: 'h',
  ԛ: 'q',
  ԝ: 'w',
  ρ: 'p',
  Ѕ: 'S',
  Ј: 'J',
  Ԛ: 'Q',
  Ԝ: 'W',
  Ү: 'Y',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  І: 'I',
  ο: 'o',
  α: 'a',
  ν: 'v',
  ι: 'i',
  κ: 'k',
  τ: 't',
  Ο: 'O',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ι: 'I',
  Κ: 'K',
  Ν: 'N',
  Τ: 'T',
  Ζ: 'Z',
  Η: 'H',
  Μ: 'M',
  Ρ: 'P',
  Χ: 'X',
  Υ: 'Y',
  '\u2018': "'",
  '\u2019': "'",
  '\u00a0': ' ',
};

// Characters that render as nothing: zero-width, bidi controls, tag characters, variation selectors
// (the supplement block is used to smuggle bytes).
const HIDDEN_CHAR = new RegExp(
  `${INVISIBLE_RE.source}|${BIDI_RE.source}|${TAG_RE.source}|[\\ufe00-\\ufe0f]|[\\u{e0100}-\\u{e01ef}]`,
  'u',
);

// ASCII first: the regular expressions below are only needed for the rare non-ASCII character.
function isWordChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 0x80)
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return /[\p{L}\p{N}]/u.test(c);
}

function isSpace(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return code === 32 || code === 10 || code === 9 || code === 13 || (code >= 0x80 && /\s/.test(ch));
}

/** The code point (as a string) that ends right before UTF-16 index `i`, or undefined at the start. */
function charBefore(source: string, i: number): string | undefined {
  if (i <= 0) return undefined;
  const low = source.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = source.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return source.slice(i - 2, i);
  }
  return source[i - 1];
}

/** The code point (as a string) that starts at UTF-16 index `i`, or undefined past the end. */
function charAt(source: string, i: number): string | undefined {
  if (i >= source.length) return undefined;
  const cp = source.codePointAt(i)!;
  return cp > 0xffff ? source.slice(i, i + 2) : source[i];
}

/**
 * An emphasis mark (`**bold**`, `_it_`) opens or closes a word: a word character on exactly one side of the
 * run. Globs and wildcards (`Bash(*)`, `*.py`, `snake_case`) keep their characters. `i` is a UTF-16 index
 * (marks are ASCII, so a run of them is a run of code units).
 */
function isEmphasisMark(source: string, i: number): boolean {
  const mark = source.charCodeAt(i);
  let from = i;
  let to = i;
  while (from > 0 && source.charCodeAt(from - 1) === mark) from--;
  while (source.charCodeAt(to + 1) === mark) to++;
  return isWordChar(charBefore(source, from)) !== isWordChar(charAt(source, to + 1));
}

const SPACE = 32;
const BACKTICK = 96;

/**
 * A look-alike letter is a disguise inside a word that also has Latin letters ("раypal", "іgnore") or that is
 * made of four or more look-alikes alone ("ехес"); a word with other Cyrillic or Greek letters is that language's word and
 * stays as written, so rules for Russian read it.
 */
function inLatinWord(source: string, at: number): boolean {
  let from = at;
  let to = at + 1;
  while (from > 0 && isWordChar(source[from - 1])) from--;
  while (to < source.length && isWordChar(source[to])) to++;
  let latin = false;
  for (let i = from; i < to; i++) {
    const c = source.charCodeAt(i);
    if (c >= 0x80 && CONFUSABLES[source[i]!] === undefined) return false;
    if (c < 0x80) latin = true;
  }
  // Short all-look-alike words ("не", "он") are ordinary Russian.
  return latin || to - from >= 4;
}

// Defanged addresses, as threat reports and lures write them so they are not clickable or scanned:
// `hxxps://evil[.]example(.)com`. Rules read them as the address they stand for; the evidence keeps the
// original text. A bracketed dot counts only between word characters (`[.]` alone is not an address).
const DEFANGED_SCHEME = /^h(?:xx|XX|\*\*)p(?=s?(?::|\[:\])\/\/)/;
const DEFANGED_DOT = /^(?:\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\))/i;

/** The refanged text at `at` and how many characters of `source` it stands for, or null. */
function refang(source: string, at: number): { text: string; length: number } | null {
  // Cheap checks first: this runs on every `h` and bracket of every document.
  const c = source.charCodeAt(at);
  const next = source.charCodeAt(at + 1);
  if (c === 104 || c === 72) {
    if (next !== 120 && next !== 88 && next !== 42) return null;
    const m = DEFANGED_SCHEME.exec(source.slice(at, at + 12));
    return m ? { text: 'http', length: m[0].length } : null;
  }
  if (c !== 91 && c !== 40 && c !== 123) return null;
  if (c === 91 && next === 58 && source.startsWith('[:]', at)) return { text: ':', length: 3 };
  if (next !== 46 && next !== 100 && next !== 68) return null;
  const m = DEFANGED_DOT.exec(source.slice(at, at + 5));
  if (!m || !isWordChar(charBefore(source, at)) || !isWordChar(charAt(source, at + m[0].length))) return null;
  return { text: '.', length: m[0].length };
}

/** Code units in one String.fromCharCode call: well under the engine's limit on arguments. */
const CHUNK = 8192;

/** The string of the first `length` UTF-16 units of `units`. */
export function fromUnits(units: Uint16Array, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += CHUNK) {
    // apply reads the typed array as array-like; a spread would walk it through an iterator.
    out += String.fromCharCode.apply(
      null,
      units.subarray(i, Math.min(length, i + CHUNK)) as unknown as number[],
    );
  }
  return out;
}

interface Scratch {
  units: Uint16Array;
  map: Int32Array;
  code: Uint8Array;
  evasive: Uint8Array;
}

/** Segments up to this length are normalised in arrays kept between calls; longer ones get their own. */
const SCRATCH_LIMIT = 1 << 16;
let scratch: Scratch | null = null;

function newScratch(length: number): Scratch {
  return {
    units: new Uint16Array(length),
    map: new Int32Array(length),
    code: new Uint8Array(length),
    evasive: new Uint8Array(length),
  };
}

/**
 * Arrays to normalise `length` units into. normalise runs on every segment and copies out what it wrote, and
 * is never re-entered: four new typed arrays per call were much of the scan's garbage.
 */
function scratchFor(length: number): Scratch {
  if (length > SCRATCH_LIMIT) return newScratch(length);
  scratch ??= newScratch(SCRATCH_LIMIT);
  return scratch;
}

/**
 * Normalises `source` (found at file offset `base`) for matching. Walks code points by UTF-16 index rather
 * than splitting the text into an array of strings, and writes into typed arrays sized for the worst case
 * (normalising never lengthens a text) with the string made once at the end: this runs on every segment of
 * every document, and appending a character at a time made it a fifth of a scan's allocation.
 */
export function normalise(source: string, base: number): NormalText {
  const { units, map, code, evasive } = scratchFor(source.length);
  let n = 0;
  let inCode = false;
  let dropped = false;
  let atLineStart = true;
  // Last character code pushed (-1 when nothing is).
  let last = -1;
  // One entry per UTF-16 unit, so indices into the text index the map too (astral characters take two).
  const pushUnit = (unit: number, offset: number) => {
    units[n] = unit;
    map[n] = base + offset;
    code[n] = inCode ? 1 : 0;
    evasive[n] = dropped ? 1 : 0;
    n++;
    last = unit;
  };
  const pushSpace = (offset: number) => {
    pushUnit(SPACE, offset);
    dropped = false;
  };
  for (let at = 0; at < source.length; ) {
    const c = source.charCodeAt(at);
    if (c < 0x80) {
      at = asciiStep(c, at);
      continue;
    }
    const width = source.codePointAt(at)! > 0xffff ? 2 : 1;
    const ch = width === 2 ? source.slice(at, at + 2) : source[at]!;
    const offset = at;
    at += width;
    if (HIDDEN_CHAR.test(ch)) {
      dropped = true;
      continue;
    }
    if (isSpace(ch)) {
      if (last !== -1 && last !== SPACE) pushSpace(offset);
      continue;
    }
    atLineStart = false;
    const folded = CONFUSABLES[ch];
    if (folded !== undefined && inLatinWord(source, offset)) pushUnit(folded.charCodeAt(0), offset);
    else {
      pushUnit(ch.charCodeAt(0), offset);
      if (width === 2) pushUnit(ch.charCodeAt(1), offset + 1);
    }
    dropped = false;
  }
  while (n > 0 && units[n - 1] === SPACE) n--;
  return {
    text: fromUnits(units, n),
    map: map.slice(0, n),
    code: code.slice(0, n),
    evasive: evasive.slice(0, n),
  };

  /** One ASCII character at `at`; returns the index of the next. */
  function asciiStep(c: number, at: number): number {
    if (c === BACKTICK) {
      inCode = !inCode;
      if (last !== SPACE) pushSpace(at);
      return at + 1;
    }
    if (c === 32 || c === 10 || c === 9 || c === 13) {
      if (c === 10) atLineStart = true;
      if (last !== -1 && last !== SPACE) pushSpace(at);
      return at + 1;
    }
    // Blockquote markers at the start of a line are layout, not text.
    if (atLineStart && c === 62) return at + 1;
    atLineStart = false;
    if (!inCode && (c === 42 || c === 95) && isEmphasisMark(source, at)) return at + 1;
    const refanged = refang(source, at);
    if (refanged) {
      for (let i = 0; i < refanged.text.length; i++) {
        pushUnit(refanged.text.charCodeAt(i), at + Math.min(i, refanged.length - 1));
      }
      dropped = false;
      return at + refanged.length;
    }
    pushUnit(c, at);
    dropped = false;
    return at + 1;
  }
}

// A span of a parsed document is read by several detectors (the prose rules, the exfiltration steps, the
// namespace claims); the document is cached per text, so its spans are the same objects and one normalised
// copy serves them all. Nobody writes into a NormalText.
const spanNorms = new WeakMap<object, NormalText>();

/**
 * `normalise` of `text.slice(span.start, span.end)`, once per span of a parsed document of `text`. A table is read
 * as a reader takes it (tableAsRead: numbered steps as a list, wrapped rows as one sentence).
 */
export function normaliseSpan(text: string, span: { start: number; end: number; kind?: string }): NormalText {
  let norm = spanNorms.get(span);
  if (!norm) {
    const source = text.slice(span.start, span.end);
    norm = normalise(span.kind === 'table' ? tableAsRead(source) : source, span.start);
    spanNorms.set(span, norm);
  }
  return norm;
}

/** A text whose characters all stand at one place in the file (decoded hidden text, alt text). */
export function atOffset(text: string, offset: number): NormalText {
  const n = normalise(text, 0);
  return { ...n, map: n.map.fill(offset) };
}

const MAX_SENTENCE = 1200;

/** Sentence ranges [start, end) in normalised text; a dot inside a path or URL does not end a sentence; each table row is one. */
export function sentences(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let start = 0;
  // A table row ends where the next row starts (`| … | | … |` once line breaks are spaces): cells of
  // different rows are not one sentence.
  // CJK sentences end at a full-width stop with no space after it.
  const re = /[.!?]+(?=\s+(?:[A-Z0-9"“'([]|[-*•] )|\s*$)|[。！？]+|\s[•▪]\s|;\s+(?=[A-Z])|\|\s+(?=\|)/g;
  for (const m of text.matchAll(re)) {
    const end = m.index + m[0].length;
    pushRange(ranges, start, end, text);
    start = end;
  }
  pushRange(ranges, start, text.length, text);
  return ranges;
}

function pushRange(ranges: [number, number][], from: number, end: number, text: string): void {
  let start = from;
  while (start < end && text[start] === ' ') start++;
  for (let s = start; s < end; s += MAX_SENTENCE) {
    const e = Math.min(end, s + MAX_SENTENCE);
    if (e > s) ranges.push([s, e]);
  }
}

/** True when [start, end) sits inside inline code or quotation marks: the words are mentioned, not said. */
/**
 * An imperative verb right before a code span makes the span its object: "pass `--no-verify`", "then run
 * `curl … | sh`" tell the reader to use the text, which a bare quotation ("the `--no-verify` flag") does not.
 */
const USES_CODE =
  /(?:^|[,;:]\s*|\b(?:then|and|always|just|please|simply|now)\s+)(?:pass|use|add|run|append|include|supply|invoke|execute|type|enter)(?:\s+(?:the\s+)?(?:flag|option|switch|command))?\s*$/i;

export function isMention(n: NormalText, sentenceStart: number, start: number, end: number): boolean {
  const before = n.text.slice(sentenceStart, start);
  if (n.code[start] && n.code[Math.max(start, end - 1)])
    return !USES_CODE.test(codeSpanLead(n, before, start));
  const straight = (before.match(/"/g) ?? []).length;
  const opened = (before.match(/[“«]/g) ?? []).length - (before.match(/[”»]/g) ?? []).length;
  return straight % 2 === 1 || opened > 0;
}

/** The sentence text before the code span that holds `start` (the span's own leading characters dropped). */
function codeSpanLead(n: NormalText, before: string, start: number): string {
  let i = start;
  while (i > 0 && n.code[i - 1]) i--;
  return before.slice(0, Math.max(0, before.length - (start - i)));
}
