import type { Skill } from '../../core/types.js';
import { outlineMarkdown } from '../outline.js';
import { analysedBody } from '../skill-text.js';
import type { DimensionResult, QualityProfile } from '../types.js';

// What a rewrite can improve, as data: each target reads the static profile (or the outline, for the two
// sections no static dimension scores) and says how weak the skill is there, in [0, 1], and why. The weakest
// targets lead the request to the model.

export type TargetId = 'description' | 'structure' | 'boundaries' | 'examples' | 'conciseness';

export const TARGET_IDS: readonly TargetId[] = [
  'description',
  'structure',
  'boundaries',
  'examples',
  'conciseness',
];

export interface Target {
  id: TargetId;
  /** 0 = nothing to do, 1 = as weak as it gets. */
  weakness: number;
  /** What the profile says is missing, in words the model (and the user) can act on. */
  reasons: string[];
}

interface Criterion {
  id: string;
  condition: string;
  met: boolean;
}

/** Headings that mark a section of limits and of examples (English; the section names authors use). */
export const SECTION_PATTERNS: Record<'boundaries' | 'examples', RegExp> = {
  boundaries:
    /\b(when not to use|do not use|don't use|not for|limitations?|limits|boundar(?:y|ies)|out of scope|caveats?|non-goals?)\b/i,
  examples: /\bexamples?\b/i,
};

/** The ask for each target, stated in the system prompt next to the reasons. */
export const TARGET_ASKS: Record<TargetId, string> = {
  description:
    'description: say what the skill does and when to use it, naming the actions and objects the body covers, in 1 to 500 characters.',
  structure:
    'structure: a body of at least two "## " sections (for example Steps, Output), with the instructions as numbered steps.',
  boundaries:
    'boundaries: a "## When not to use" (or "## Limitations") section stating which requests the skill does not handle and what to do instead.',
  examples:
    'examples: a "## Examples" section showing a typical request and what the agent does, using only commands and files already in the skill.',
  conciseness:
    'conciseness: remove repeated text and filler so the file stays well under 2,000 tokens; keep every instruction.',
};

function dimension(profile: QualityProfile, id: string): DimensionResult | undefined {
  return profile.dimensions.find((d) => d.id === id && d.status === 'scored');
}

function criteria(d: DimensionResult | undefined): Criterion[] {
  const list = d?.evidence.criteria;
  return Array.isArray(list) ? (list as Criterion[]) : [];
}

function unmet(d: DimensionResult | undefined, ids: readonly string[]): Criterion[] {
  return criteria(d).filter((c) => ids.includes(c.id) && !c.met);
}

function hasSection(skill: Skill, pattern: RegExp): boolean {
  return outlineMarkdown(analysedBody(skill).text).headings.some((h) => pattern.test(h.text));
}

function descriptionTarget(profile: QualityProfile): Target {
  const structural = dimension(profile, 'structural-completeness');
  const consistency = dimension(profile, 'description-content-consistency');
  const reasons = unmet(structural, ['description', 'description-length']).map((c) => `${c.condition}: no`);
  const missing = consistency?.evidence.notInBody;
  if (Array.isArray(missing) && missing.length > 0)
    reasons.push(`description words the body never mentions: ${missing.slice(0, 8).join(', ')}`);
  const salient = consistency?.evidence.salientBodyTerms;
  const named = consistency?.evidence.salientNamedInDescription;
  if (Array.isArray(salient) && Array.isArray(named)) {
    const unnamed = salient.filter((t) => !named.includes(t));
    if (unnamed.length > 0)
      reasons.push(`main body terms the description does not name: ${unnamed.slice(0, 8).join(', ')}`);
  }
  if (typeof consistency?.evidence.reason === 'string') reasons.push(consistency.evidence.reason);
  const weakness = consistency?.score === null || !consistency ? 1 : 1 - consistency.score;
  return { id: 'description', weakness: reasons.length === 0 ? 0 : weakness, reasons };
}

function structureTarget(profile: QualityProfile): Target {
  const structural = dimension(profile, 'structural-completeness');
  const missed = unmet(structural, ['frontmatter', 'name', 'instructional-body', 'section-structure']);
  return {
    id: 'structure',
    weakness: structural?.score === null || !structural ? 1 : 1 - structural.score,
    reasons: missed.map((c) => `${c.condition}: no`),
  };
}

function conciseTarget(profile: QualityProfile): Target {
  const d = dimension(profile, 'conciseness');
  if (!d || d.score === null) return { id: 'conciseness', weakness: 0, reasons: [] };
  const reasons: string[] = [];
  const { tokens, repetition } = d.evidence as {
    tokens?: number;
    repetition?: { share?: number; repeatedLines?: { text: string }[] };
  };
  if (typeof tokens === 'number' && tokens > 2_000)
    reasons.push(`SKILL.md is about ${tokens} tokens (full marks up to 2,000)`);
  if (repetition?.share && repetition.share > 0) {
    const lines = (repetition.repeatedLines ?? []).map((l) => `"${l.text}"`).join('; ');
    reasons.push(
      `${Math.round(repetition.share * 100)}% of the prose repeats itself${lines ? `: ${lines}` : ''}`,
    );
  }
  return { id: 'conciseness', weakness: reasons.length === 0 ? 0 : 1 - d.score, reasons };
}

function sectionTarget(skill: Skill, id: 'boundaries' | 'examples'): Target {
  const present = hasSection(skill, SECTION_PATTERNS[id]);
  // A missing section weighs like a missing Table 10 criterion of middle weight: worth asking for, but after
  // the scored dimensions that are far off.
  return {
    id,
    weakness: present ? 0 : 0.15,
    reasons: present ? [] : [`no ${id === 'boundaries' ? '"When not to use" / limits' : 'examples'} section`],
  };
}

/** Every target with something to fix, weakest first. */
export function findTargets(skill: Skill, profile: QualityProfile): Target[] {
  const all = [
    descriptionTarget(profile),
    structureTarget(profile),
    sectionTarget(skill, 'boundaries'),
    sectionTarget(skill, 'examples'),
    conciseTarget(profile),
  ];
  return all
    .filter((t) => t.weakness > 0 && t.reasons.length > 0)
    .sort((a, b) => b.weakness - a.weakness || TARGET_IDS.indexOf(a.id) - TARGET_IDS.indexOf(b.id));
}

/** How many of the two unscored sections (limits, examples) the skill has: the tie-breaker between equal scores. */
export function sectionsPresent(skill: Skill): number {
  return (['boundaries', 'examples'] as const).filter((id) => hasSection(skill, SECTION_PATTERNS[id])).length;
}
