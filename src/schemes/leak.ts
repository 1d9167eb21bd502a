import { basename } from 'node:path';
import type { Skill } from '../core/types.js';

// Mechanical check that an agent-facing instruction states a business goal without giving away the skill's
// procedure: long word sequences copied from SKILL.md, the skill's name, or its script names.

export interface LeakPolicy {
  /** Any shared n-gram of this length is a leak. */
  longGram: number;
  /** Length of the n-grams counted for the overlap ratio. */
  shortGram: number;
  /** Share of the instruction's short n-grams also in SKILL.md above which it leaks. */
  maxShortGramShare: number;
}

export const DEFAULT_LEAK_POLICY: LeakPolicy = { longGram: 8, shortGram: 5, maxShortGramShare: 0.2 };

/** Lower-case letter/number words; punctuation and markup are separators. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function grams(ws: readonly string[], n: number): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + n <= ws.length; i++) out.add(ws.slice(i, i + n).join(' '));
  return out;
}

function containsSequence(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * A name is checked as a word sequence. A one-word name is checked only when it is long enough to be
 * distinctive (a skill called `pdf` must not forbid every task about PDFs).
 */
function nameLeaks(instructionWords: readonly string[], name: string): boolean {
  const ws = words(name);
  if (ws.length === 0) return false;
  if (ws.length === 1 && (ws[0] as string).length < 8) return false;
  return containsSequence(instructionWords, ws);
}

export interface SkillLeakIndex {
  longGrams: Set<string>;
  shortGrams: Set<string>;
  names: string[];
  scriptNames: string[];
}

export function leakIndex(skill: Skill, policy: LeakPolicy = DEFAULT_LEAK_POLICY): SkillLeakIndex {
  const skillMd = skill.files.find((f) => f.path === 'SKILL.md')?.text ?? skill.body;
  const ws = words(`${skill.description}\n${skillMd}`);
  const scriptNames = skill.files.filter((f) => f.kind === 'script').map((f) => basename(f.path));
  return {
    longGrams: grams(ws, policy.longGram),
    shortGrams: grams(ws, policy.shortGram),
    names: [...new Set([skill.name, skill.folderName].filter((n) => n.trim() !== ''))],
    scriptNames: [...new Set(scriptNames)],
  };
}

/** Reasons the instruction leaks the skill (empty when it does not), phrased for the model to fix them. */
export function findLeaks(
  instruction: string,
  index: SkillLeakIndex,
  policy: LeakPolicy = DEFAULT_LEAK_POLICY,
): string[] {
  const reasons: string[] = [];
  const ws = words(instruction);
  const long = [...grams(ws, policy.longGram)].filter((g) => index.longGrams.has(g));
  if (long.length > 0) reasons.push(`copies text from SKILL.md: "${long[0]}"`);
  const short = grams(ws, policy.shortGram);
  if (short.size > 0) {
    const shared = [...short].filter((g) => index.shortGrams.has(g)).length;
    const share = shared / short.size;
    if (share > policy.maxShortGramShare && long.length === 0)
      reasons.push(`${Math.round(share * 100)}% of its 5-word phrases come from SKILL.md`);
  }
  for (const name of index.names) {
    if (nameLeaks(ws, name)) reasons.push(`names the skill ("${name}")`);
  }
  const lower = instruction.toLowerCase();
  for (const script of index.scriptNames) {
    if (lower.includes(script.toLowerCase())) reasons.push(`names the skill's script "${script}"`);
  }
  return reasons;
}
