import { notRunDimension, scoredDimension } from './dimensions.js';
import type { DimensionResult } from './types.js';

// The two stability dimensions over agent-run outcomes. A run's success is its checklist pass fraction (n of N
// items) in [0, 1]. Seed 001 names these dimensions without formulas; ours are in docs/quality.md.

export interface CrossModelOutcome {
  scenario: string;
  /** Success per model configuration (e.g. `anthropic/claude-sonnet-4-5`), mean over repeated trials. */
  byModel: Record<string, number>;
}

export interface PerturbationOutcome {
  scenario: string;
  /** Success on the request as generated. */
  original: number;
  /** Success on each paraphrase of the same request. */
  paraphrases: number[];
}

function checkSuccess(x: number, what: string): number {
  if (!Number.isFinite(x) || x < 0 || x > 1)
    throw new RangeError(`${what} must be a success fraction in [0, 1], got ${x}`);
  return x;
}

/**
 * Cross-model robustness: per scenario the worst model's success (what the skill guarantees whichever model
 * runs it), averaged over scenarios. Scenarios run on fewer than two models say nothing about robustness and
 * are left out.
 */
export function crossModelRobustness(outcomes: readonly CrossModelOutcome[]): DimensionResult {
  const scenarios = outcomes
    .filter((o) => Object.keys(o.byModel).length >= 2)
    .map((o) => {
      const values = Object.entries(o.byModel).map(([model, s]) => checkSuccess(s, `success of ${model}`));
      return {
        scenario: o.scenario,
        byModel: o.byModel,
        worst: Math.min(...values),
        best: Math.max(...values),
      };
    });
  if (scenarios.length === 0) {
    return notRunDimension(
      'cross-model-robustness',
      'needs runs of the same scenarios on two or more model configurations',
    );
  }
  return scoredDimension(
    'cross-model-robustness',
    scenarios.reduce((sum, s) => sum + s.worst, 0) / scenarios.length,
    {
      formula: 'mean over scenarios of min over models of success',
      scenarios,
    },
  );
}

/**
 * Intent-perturbation stability: per scenario 1 − mean |success(paraphrase) − success(original)|, averaged
 * over scenarios. It measures invariance only; a skill that fails every phrasing alike is caught by utility
 * and cross-model robustness, not here.
 */
export function intentPerturbationStability(outcomes: readonly PerturbationOutcome[]): DimensionResult {
  const scenarios = outcomes
    .filter((o) => o.paraphrases.length > 0)
    .map((o) => {
      const original = checkSuccess(o.original, 'original success');
      const deltas = o.paraphrases.map((p) => Math.abs(checkSuccess(p, 'paraphrase success') - original));
      const stability = 1 - deltas.reduce((sum, d) => sum + d, 0) / deltas.length;
      return { scenario: o.scenario, original, paraphrases: o.paraphrases, stability };
    });
  if (scenarios.length === 0) {
    return notRunDimension(
      'intent-perturbation-stability',
      'needs runs on original and paraphrased requests',
    );
  }
  return scoredDimension(
    'intent-perturbation-stability',
    scenarios.reduce((sum, s) => sum + s.stability, 0) / scenarios.length,
    {
      formula: 'mean over scenarios of 1 − mean |paraphrase − original|',
      scenarios,
    },
  );
}
