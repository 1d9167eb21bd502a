import { CODE_WORDS, GENERIC_SKILL_WORDS, STOPWORDS } from './stopwords.js';

// Content terms for lexical comparison: lowercase words, stopwords and generic skill vocabulary removed, light
// stemming so that "merging", "merged" and "merges" meet. CJK runs become character bigrams, the usual
// dictionary-free way to compare Chinese or Japanese text.

const WORD = /[\p{L}\p{N}]+/gu;
// Kana, CJK ideographs and Hangul: scripts written without spaces between words.
const CJK_CLASS = '\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff';
const HAS_CJK = new RegExp(`[${CJK_CLASS}]`, 'u');
const CJK_PARTS = new RegExp(`([${CJK_CLASS}]+)`, 'u');

/** All lowercase words of `text`, in order, with CJK runs split into character bigrams. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const w = match[0];
    if (!HAS_CJK.test(w)) {
      out.push(w);
      continue;
    }
    // Mixed runs such as "pdf文件": the odd split parts are CJK runs, the even ones other letters or digits.
    w.split(CJK_PARTS).forEach((part, i) => {
      if (!part) return;
      if (i % 2 === 0) {
        out.push(part);
        return;
      }
      const chars = [...part];
      if (chars.length === 1) out.push(part);
      for (let j = 0; j + 1 < chars.length; j++) out.push(chars[j]! + chars[j + 1]!);
    });
  }
  return out;
}

/** Light suffix stripping (plural, -ing, -ed, -ly, -ies, final e): matches inflections, never a full stemmer. */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2));
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ly') && w.length > 4) w = w.slice(0, -2);
  else if (/(?:ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  return stripE(w);
}

// "running" → "run", "mapped" → "map", but "filled" → "fill", "processed" → "process" and "adding" → "add".
function undouble(s: string): string {
  return s.length > 3 && /([bcdfghjkmnpqrtvxz])\1$/.test(s) ? s.slice(0, -1) : stripE(s);
}

// "merge", "merges", "merged" and "merging" all become "merg".
function stripE(s: string): string {
  return s.endsWith('e') && s.length > 3 ? s.slice(0, -1) : s;
}

function isContentWord(w: string): boolean {
  if (STOPWORDS.has(w) || GENERIC_SKILL_WORDS.has(w) || CODE_WORDS.has(w)) return false;
  if (/^\d+$/.test(w)) return false;
  // One Latin letter carries no topic; a single CJK character (a whole CJK word) may.
  return w.length > 1 || /[^\p{ASCII}]/u.test(w);
}

/**
 * Whether two stems name the same term: equal, or Latin stems sharing a prefix of at least five letters that
 * covers more than 80% of the shorter one. The light stemmer leaves "summary", "summarise" and "summarize" as
 * "summary", "summaris" and "summariz"; the prefix rule joins them, while "transform" and "transfer" (6 of 8)
 * stay apart.
 */
export function sameTerm(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 5 || !/^[a-z]+$/.test(a) || !/^[a-z]+$/.test(b)) return false;
  let prefix = 0;
  while (prefix < shorter && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return prefix >= 5 && prefix > 0.8 * shorter;
}

/** Stemmed content terms of `text`, in order, repeats kept. */
export function contentTerms(text: string): string[] {
  return words(text).filter(isContentWord).map(stem);
}

/** The first word (lowercase) seen for each stem in `text`: how evidence shows a stem to a reader. */
export function surfaceWords(text: string): Map<string, string> {
  const surface = new Map<string, string>();
  for (const w of words(text)) {
    if (!isContentWord(w)) continue;
    const term = stem(w);
    if (!surface.has(term)) surface.set(term, w);
  }
  return surface;
}
