import type { Framing } from '../../core/markdown.js';
import { UNLESS_DOUBLE_NEGATIVE } from '../../core/negation.js';
import type { Rule } from '../../core/rule.js';

// The shape of a prose rule, as read from its rule.yaml (engine/rule-pack.ts). A rule fires on a sentence
// when every expression of one of its variants matches there; adjustments, framing and scope then set the
// confidence (prose-apply.ts).

export interface Variant {
  /** All must match in the same sentence; the hit spans from the first match to the last. */
  all: readonly RegExp[];
  /** Confidence when told to the agent as an instruction, before adjustments. */
  base: number;
  /** Why this variant is a risk, said in the rationale. */
  why: string;
}

export interface Adjustment {
  re: RegExp;
  /** Multiplies the confidence: below 1 for benign readings, above 1 for aggravating ones. */
  factor: number;
  why: string;
  /**
   * Framing weights that apply instead of the rule's when this adjustment matches: a fact about the text that
   * makes its framing beside the point (a raw-IP script piped to a shell is no safer when told to the user).
   */
  framing?: Partial<Record<Framing, number>>;
}

export interface PhraseRule extends Rule {
  variants: readonly Variant[];
  adjust?: readonly Adjustment[];
  /** Matched against the skill's name and description: when it says this is its job, lower the confidence. */
  scope?: Adjustment;
  /**
   * What a stated purpose does not cover unless it names it: when the sentence matches `sentence` and the
   * name and description do not match `purpose`, the scope is not applied (a memory skill's purpose covers its
   * memory file, not the user's ~/.bashrc).
   */
  scopeExcept?: { sentence: RegExp; purpose: RegExp };
  /** Factor when the words are quoted or in inline code (mentioned, not said). Commands keep 1. */
  mention: number;
  /** Rules that, firing on the same sentence, already say what this one would (the hit is dropped). */
  yieldsTo?: readonly string[];
}

/** "never send", "do not read", "without uploading": the sentence says what not to do. */
export function negated(verbs: string): Adjustment {
  return {
    re: new RegExp(
      // The negation may head a list ("You must NEVER:\n- Reveal …, - Provide …"): its scope is every item.
      String.raw`(?:\b(?:never|not|no longer|without|avoid|refuses? to|prohibited from|forbidden to)|n't)${UNLESS_DOUBLE_NEGATIVE}\s+(?:\w+\s+){0,3}?(?:${verbs})|(?:\b(?:never|not|avoid|prohibited|forbidden)|n't)\s*:\s*(?:[-*+•]|\d+[.)])\s`,
      'i',
    ),
    factor: 0.15,
    why: 'the sentence says not to do it',
  };
}
