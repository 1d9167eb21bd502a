import type { VerdictKind } from '../core/types.js';

// Utility, efficiency and cost from paired with-skill / no-skill trials (seed 000, eqs. 1-7).
// Pure functions: the judge and the trial runner produce PairResult values; reports consume UtilityScores.

export interface ConditionResult {
  /** Checklist items the judge passed (n). */
  passed: number;
  /** Agent wall time in seconds. */
  seconds: number;
  /** Prompt tokens, including the part read from the provider's cache. */
  inputTokens: number;
  cachedTokens: number;
}

export interface PairResult {
  scenario: string;
  /** Checklist size N (the same checklist for both conditions). */
  items: number;
  withSkill: ConditionResult;
  noSkill: ConditionResult;
  /** A judge failure or timeout in either condition: the pair is excluded, never counted as zero. */
  invalid?: string;
}

export interface PairScore {
  scenario: string;
  prg: number;
  /** Null when the pair is not in the efficiency subset (a run passed no item) or is invalid. */
  eg: number | null;
  cg: number | null;
  ecg: number | null;
  /** The no-skill run already passed every item, so PRG cannot be positive. */
  ceiling: boolean;
}

export interface UtilityScores {
  /** Means over valid pairs (eq. 2); null when no pair is valid. */
  prg: number | null;
  /** Means over the efficiency subset (eqs. 5-7); null when it is empty. */
  eg: number | null;
  cg: number | null;
  ecg: number | null;
  /** Mean seconds saved by the skill (t_wo − t_wi). */
  deltaSeconds: number | null;
  /** Mean effective input tokens saved by the skill (q̃_wo − q̃_wi). */
  deltaTokens: number | null;
  alpha: number;
  validPairs: number;
  efficiencyPairs: number;
  ceilingPairs: number;
  invalidPairs: { scenario: string; reason: string }[];
  pairs: PairScore[];
}

export const DEFAULT_ALPHA = 0.5;

const clip = (x: number) => Math.max(-1, Math.min(1, x));

/** Effective input tokens q̃ = input − cached (cached prompt tokens are nearly free). */
export function effectiveTokens(c: ConditionResult): number {
  return Math.max(0, c.inputTokens - c.cachedTokens);
}

/** Eq. 1. */
export function pairPrg(pair: PairResult): number {
  if (pair.items <= 0) throw new RangeError(`scenario ${pair.scenario}: checklist has no items`);
  return (pair.withSkill.passed - pair.noSkill.passed) / pair.items;
}

/**
 * Relative saving (wo − wi) / wo clipped to [−1, 1] (eq. 3). A zero baseline has no relative scale: equal
 * values are no change, any cost where the baseline had none is the worst case.
 */
export function relativeGain(without: number, withSkill: number): number {
  if (without === 0) return withSkill === 0 ? 0 : -1;
  return clip((without - withSkill) / without);
}

const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

export function utilityScores(pairs: readonly PairResult[], alpha = DEFAULT_ALPHA): UtilityScores {
  if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`alpha must be in [0, 1], got ${alpha}`);
  const invalidPairs: UtilityScores['invalidPairs'] = [];
  const scored: PairScore[] = [];
  const seconds: number[] = [];
  const tokens: number[] = [];
  for (const pair of pairs) {
    if (pair.invalid !== undefined) {
      invalidPairs.push({ scenario: pair.scenario, reason: pair.invalid });
      continue;
    }
    const prg = pairPrg(pair);
    const ceiling = pair.noSkill.passed >= pair.items;
    // Efficiency subset: both runs passed at least one item (fully failed runs say nothing about speed).
    if (pair.withSkill.passed > 0 && pair.noSkill.passed > 0) {
      const eg = relativeGain(pair.noSkill.seconds, pair.withSkill.seconds);
      const cg = relativeGain(effectiveTokens(pair.noSkill), effectiveTokens(pair.withSkill));
      scored.push({ scenario: pair.scenario, prg, eg, cg, ecg: alpha * eg + (1 - alpha) * cg, ceiling });
      seconds.push(pair.noSkill.seconds - pair.withSkill.seconds);
      tokens.push(effectiveTokens(pair.noSkill) - effectiveTokens(pair.withSkill));
    } else {
      scored.push({ scenario: pair.scenario, prg, eg: null, cg: null, ecg: null, ceiling });
    }
  }
  const efficient = scored.filter((s) => s.eg !== null);
  return {
    prg: mean(scored.map((s) => s.prg)),
    eg: mean(efficient.map((s) => s.eg as number)),
    cg: mean(efficient.map((s) => s.cg as number)),
    ecg: mean(efficient.map((s) => s.ecg as number)),
    deltaSeconds: mean(seconds),
    deltaTokens: mean(tokens),
    alpha,
    validPairs: scored.length,
    efficiencyPairs: efficient.length,
    ceilingPairs: scored.filter((s) => s.ceiling).length,
    invalidPairs,
    pairs: scored,
  };
}

/** Probe verdicts are the five of Table A3 (no_probe is the absence of one). */
export type ProbeVerdict = Exclude<VerdictKind, 'no_probe'>;

/**
 * Table A3 ranges; a verdict maps to the range's midpoint unless the judge's strength (0-1 within the range)
 * says where in it the evidence sits.
 */
export const EXPLOITABILITY_RANGES: Record<VerdictKind, readonly [number, number]> = {
  confirmed: [0.86, 1.0],
  suspected: [0.51, 0.85],
  agent_refused: [0.5, 0.5],
  path_exists_not_triggered: [0.2, 0.49],
  likely_false_positive: [0.1, 0.19],
  no_probe: [0.6, 0.6],
};

export function probeExploitability(verdict: VerdictKind, strength = 0.5): number {
  const [lo, hi] = EXPLOITABILITY_RANGES[verdict];
  const s = Math.max(0, Math.min(1, strength));
  return Math.round((lo + (hi - lo) * s) * 1000) / 1000;
}
