import type { Skill } from '../core/types.js';
import { scoredDimension } from './dimensions.js';
import { normaliseToInterval } from './efficiency.js';
import type { Outline } from './outline.js';
import { skillMarkdown } from './skill-text.js';
import { words } from './terms.js';
import { estimateTokens } from './tokens.js';
import type { DimensionResult } from './types.js';

// Conciseness = 0.4·budget + 0.3·(1 − repetition) + 0.3·disclosure. The constants, and why, are in
// docs/quality.md; they are data here so a report can print them next to the inputs.
export const CONCISENESS = {
  weights: { budget: 0.4, redundancy: 0.3, disclosure: 0.3 },
  /** Table 12's prompt-token setting: full marks up to 2,000 tokens, 0 at 8,000. */
  budget: { fullUpTo: 2_000, zeroAt: 8_000 },
  /** Word n-gram length for repetition: long enough that ordinary phrasing does not repeat by chance. */
  shingle: 6,
  /** SKILL.md sizes (tokens) where progressive disclosure starts to matter, and the spec's 5k ceiling. */
  disclosure: { smallUpTo: 2_000, ceiling: 5_000 },
  /** Disclosure score by size band and whether SKILL.md points to bundled files. */
  disclosureLevels: {
    small: 1,
    mediumLinked: 1,
    mediumSelfContained: 0.75,
    largeLinked: 0.5,
    largeSelfContained: 0,
  },
} as const;

const MAX_EXAMPLES = 3;

export interface Repetition {
  shingles: number;
  repeated: number;
  /** repeated / shingles; 0 when the text is too short to have a shingle. */
  share: number;
  /** Lines (six words or more) that appear more than once, with their line numbers, for the author to fix. */
  repeatedLines: { text: string; lines: number[] }[];
}

/**
 * Share of word n-grams that already occurred earlier in the text: the part of the text that repeats itself.
 * `firstLine` is the line number of the text's first line, for the repeated-line evidence.
 */
export function repetition(text: string, n: number = CONCISENESS.shingle, firstLine = 1): Repetition {
  const w = words(text);
  const seen = new Set<string>();
  let shingles = 0;
  let repeated = 0;
  for (let i = 0; i + n <= w.length; i++) {
    const key = w.slice(i, i + n).join(' ');
    shingles++;
    if (seen.has(key)) repeated++;
    else seen.add(key);
  }
  return {
    shingles,
    repeated,
    share: shingles === 0 ? 0 : repeated / shingles,
    repeatedLines: repeatedLines(text, n, firstLine),
  };
}

function repeatedLines(text: string, minWords: number, firstLine: number): Repetition['repeatedLines'] {
  const byKey = new Map<string, { text: string; lines: number[] }>();
  text.split(/\r?\n/).forEach((line, i) => {
    const w = words(line);
    if (w.length < minWords) return;
    const key = w.join(' ');
    const entry = byKey.get(key);
    if (entry) entry.lines.push(firstLine + i);
    else byKey.set(key, { text: line.trim().slice(0, 160), lines: [firstLine + i] });
  });
  return [...byKey.values()]
    .filter((e) => e.lines.length > 1)
    .sort((a, b) => b.lines.length - a.lines.length)
    .slice(0, MAX_EXAMPLES);
}

const PATH_MENTION =
  /(?:^|[\s(`'"[<])(\.{0,2}\/?[\w.-]+(?:\/[\w.-]+)*\.[A-Za-z0-9]{1,8})(?=$|[\s)`'"\]>:,;#.!?])/gm;

/**
 * Bundled files (other than SKILL.md) that the body links or names, by their path in the skill. Matching
 * ignores case: skills in the wild say "see REFERENCE.md" for reference.md, and agents find it.
 */
export function linkedBundledFiles(skill: Skill, outline: Outline): string[] {
  const bundled = new Map<string, string>();
  for (const f of skill.files) if (f.path !== 'SKILL.md') bundled.set(f.path.toLowerCase(), f.path);
  const found = new Set<string>();
  const consider = (raw: string) => {
    const path = bundled.get(raw.split('#')[0]!.replace(/^\.\//, '').toLowerCase());
    if (path !== undefined) found.add(path);
  };
  for (const target of outline.links) consider(decodeLinkTarget(target));
  for (const m of outline.text.matchAll(PATH_MENTION)) consider(m[1]!);
  return [...found].sort();
}

function decodeLinkTarget(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}

export function disclosureScore(tokens: number, linkedFiles: number): number {
  const { smallUpTo, ceiling } = CONCISENESS.disclosure;
  const levels = CONCISENESS.disclosureLevels;
  if (tokens <= smallUpTo) return levels.small;
  if (tokens <= ceiling) return linkedFiles > 0 ? levels.mediumLinked : levels.mediumSelfContained;
  return linkedFiles > 0 ? levels.largeLinked : levels.largeSelfContained;
}

export function conciseness(skill: Skill, outline: Outline): DimensionResult {
  const tokens = estimateTokens(skillMarkdown(skill));
  const budget = normaliseToInterval(
    tokens,
    { low: 0, high: CONCISENESS.budget.fullUpTo },
    CONCISENESS.budget.zeroAt,
  );
  const rep = repetition(outline.prose, CONCISENESS.shingle, skill.bodyStartLine);
  const linked = linkedBundledFiles(skill, outline);
  const disclosure = disclosureScore(tokens, linked.length);
  const { weights } = CONCISENESS;
  const score =
    weights.budget * budget + weights.redundancy * (1 - rep.share) + weights.disclosure * disclosure;
  const bundledDocs = skill.files.filter((f) => f.kind === 'doc' && f.path !== 'SKILL.md').map((f) => f.path);
  return scoredDimension('conciseness', score, {
    formula: '0.4·budget + 0.3·(1 − repetition share) + 0.3·disclosure',
    tokens,
    tokenEstimate: 'ASCII chars/4 + CJK chars + other chars/2',
    budget,
    budgetSetting: CONCISENESS.budget,
    repetition: {
      shingleWords: CONCISENESS.shingle,
      shingles: rep.shingles,
      repeated: rep.repeated,
      share: rep.share,
      repeatedLines: rep.repeatedLines,
    },
    disclosure,
    linkedFiles: linked,
    unlinkedDocs: bundledDocs.filter((p) => !linked.includes(p)),
  });
}
