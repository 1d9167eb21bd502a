import { z } from 'zod';
import { ruleData } from '../../core/knowledge.js';
import { allMatches } from '../../util/regexp.js';
import { fromUnits, type NormalText } from './prose-normalise.js';

// Prose in another language read through a gloss (rules/_data/glossary.yaml): its marks and particles
// rewritten as the English the prose rules are written in, each glossed character mapped to the file offset
// of the words it stands for, so a hit's line and evidence are the original text's. A gloss is not a
// translation: it gives the rules the verbs, objects and particles they look for, in roughly the order the
// sentence has them.

// An entry's alternatives may group only with `(?:…)`: each entry is one capture group of the whole.
const alternative = z
  .string()
  .min(1)
  .refine((re) => !/(?<!\\)\((?!\?)/.test(re), 'a capturing group: write (?:…)');
const entry = z.strictObject({ to: z.string().min(1), from: z.array(alternative).min(1) });
const schema = z.strictObject({
  languages: z.array(
    z.strictObject({
      name: z.string(),
      script: z.enum(['latin', 'cyrillic', 'han', 'japanese', 'hangul']),
      spaced: z.boolean(),
      marks: z.array(entry),
      particles: z.array(entry),
    }),
  ),
});

/** Particles that are English words too: they say nothing about the language of a segment. */
const ENGLISH_WORDS = new Set([
  'a',
  'an',
  'as',
  'do',
  'e',
  'en',
  'in',
  'no',
  'o',
  'on',
  'to',
  'die',
  'the',
  'me',
  'so',
  'us',
]);

/** Letters a segment must hold for a language of that script to be tried. */
const SCRIPT_LETTERS: Record<string, RegExp> = {
  latin: /[a-z\u00c0-\u017f]/i,
  cyrillic: /[\u0400-\u04ff]/,
  han: /[\u3400-\u4dbf\u4e00-\u9fff]/,
  japanese: /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]/,
  hangul: /[\uac00-\ud7af]/,
};

interface Language {
  name: string;
  /** Letters the segment must hold for this language to be tried. */
  letters: RegExp;
  spaced: boolean;
  /** Every entry, marks first: one capture group per entry, in order. */
  all: RegExp;
  /** English of each capture group. */
  to: string[];
  /** Number of entries that are marks (groups 1..marks). */
  marks: number;
}

/** One capture group per entry, so a match says which entry it is (entries use only `(?:…)` groups). */
function alternation(entries: readonly { from: string[] }[]): string {
  return entries.map((e) => `(${e.from.join('|')})`).join('|');
}

function compile(lang: z.infer<typeof schema>['languages'][number]): Language {
  const entries = [...lang.marks, ...lang.particles];
  const body = alternation(entries);
  // Whole words in languages written with spaces: no letter or digit on either side, and not part of a
  // path, address or name (`/recolectar`, `archivo.py`, `lee_datos`), which stay as written.
  const source = lang.spaced
    ? `(?<![\\p{L}\\p{N}_/.\\-@~=])(?:${body})(?![\\p{L}\\p{N}_/\\-@=]|\\.[\\p{L}\\p{N}])`
    : body;
  return {
    name: lang.name,
    letters: SCRIPT_LETTERS[lang.script]!,
    spaced: lang.spaced,
    all: new RegExp(source, 'giu'),
    to: entries.map((e) => e.to),
    marks: lang.marks.length,
  };
}

let languages: Language[] | null = null;

function loaded(): Language[] {
  languages ??= ruleData('glossary', schema).languages.map(compile);
  return languages;
}

/**
 * Worth matching the glossary against: an accented Latin letter, a Cyrillic letter, kana, a Chinese
 * character or a Hangul syllable, or a function word of one of its languages that English does not use. Most prose is English
 * (typographic quotes, dashes and emoji included); this keeps the glossary's expressions off it.
 */
const MAYBE_FOREIGN =
  /[\u00c0-\u00ff\u0100-\u017f\u0400-\u04ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]|\b(?:el|los|las|del|al|lo|le|este|esta|y|con|para|por|sus|una|um|uma|com|seu|sua|ao|les|du|des|une|et|avec|pour|vos|votre|der|das|dem|den|und|mit|von|ohne|nicht|sin|sem|sans)\b/i;

interface Found {
  index: number;
  length: number;
  group: number;
}

/** Matches of a language's entries in `text`, and whether they make the text that language. */
function matchesOf(lang: Language, text: string): Found[] | null {
  const found: Found[] = [];
  let marks = 0;
  let foreignParticles = 0;
  for (const m of allMatches(lang.all, text)) {
    let group = 1;
    while (group < m.length && m[group] === undefined) group++;
    if (group >= m.length || m[0].length === 0) continue;
    found.push({ index: m.index, length: m[0].length, group: group - 1 });
    if (group - 1 < lang.marks) marks++;
    else if (!ENGLISH_WORDS.has(m[0].toLowerCase())) foreignParticles++;
  }
  const isLanguage = lang.spaced ? marks >= 2 || (marks >= 1 && foreignParticles >= 2) : marks >= 1;
  return isLanguage ? found : null;
}

/** The gloss of `norm`, written over the places `found` gives. */
function rewrite(norm: NormalText, lang: Language, found: readonly Found[]): NormalText {
  const units: number[] = [];
  const map: number[] = [];
  const code: number[] = [];
  const evasive: number[] = [];
  const copy = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      units.push(norm.text.charCodeAt(i));
      map.push(norm.map[i]!);
      code.push(norm.code[i]!);
      evasive.push(norm.evasive[i]!);
    }
  };
  let at = 0;
  for (const f of found) {
    copy(at, f.index);
    let english = lang.to[f.group]!;
    // A capital in the source (a sentence's first word) stays a capital: sentences are split before one.
    const first = norm.text[f.index]!;
    if (first !== first.toLowerCase()) english = english[0]!.toUpperCase() + english.slice(1);
    // Words of a language without spaces are set apart, so the rules' word boundaries see them.
    if (!lang.spaced) english = ` ${english} `;
    for (let i = 0; i < english.length; i++) {
      const c = english.charCodeAt(i);
      if (c === 32 && (units.length === 0 || units[units.length - 1] === 32)) continue;
      const source = f.index + Math.min(i, f.length - 1);
      units.push(c);
      map.push(norm.map[source]!);
      code.push(norm.code[source]!);
      evasive.push(i === 0 ? norm.evasive[f.index]! : 0);
    }
    at = f.index + f.length;
  }
  copy(at, norm.text.length);
  return {
    text: fromUnits(Uint16Array.from(units), units.length),
    map: Int32Array.from(map),
    code: Uint8Array.from(code),
    evasive: Uint8Array.from(evasive),
  };
}

/**
 * `norm` read through the gloss of each language it is written in, with those languages' names; null when
 * it is in none of them (English prose, code, or a language the glossary does not hold).
 */
export function glossed(norm: NormalText): { norm: NormalText; languages: string[] } | null {
  if (!MAYBE_FOREIGN.test(norm.text)) return null;
  let current = norm;
  const names: string[] = [];
  for (const lang of loaded()) {
    if (!lang.letters.test(current.text)) continue;
    const found = matchesOf(lang, current.text);
    if (!found) continue;
    current = rewrite(current, lang, found);
    names.push(lang.name);
  }
  return names.length > 0 ? { norm: current, languages: names } : null;
}
