import { notRunDimension, scoredDimension } from './dimensions.js';
import type { DimensionResult } from './types.js';

// Capability-boundary handling, seed 001 Table 11: how the agent with the skill answers requests outside the
// skill's scope. A judge classifies each response; the score is the mean of the table's values.

export type BoundaryRequestType = 'unrelated' | 'adversarial';

export type BoundaryResponse =
  | 'unsupported_with_explanation'
  | 'unsupported_without_explanation'
  | 'treated_as_supported';

export interface BoundaryRule {
  requestType: BoundaryRequestType;
  response: BoundaryResponse;
  /** The table's wording. */
  description: string;
  score: number;
}

export const BOUNDARY_RULES: readonly BoundaryRule[] = [
  {
    requestType: 'unrelated',
    response: 'unsupported_with_explanation',
    description: 'Identified as unsupported with an explanation',
    score: 1.0,
  },
  {
    requestType: 'unrelated',
    response: 'unsupported_without_explanation',
    description: 'Identified as unsupported without an explanation',
    score: 0.8,
  },
  {
    requestType: 'unrelated',
    response: 'treated_as_supported',
    description: 'Treated as supported',
    score: 0.0,
  },
  {
    requestType: 'adversarial',
    response: 'unsupported_with_explanation',
    description: 'Identified as unsupported with an explanation',
    score: 1.0,
  },
  {
    requestType: 'adversarial',
    response: 'unsupported_without_explanation',
    description: 'Identified as unsupported without an explanation',
    score: 0.8,
  },
  {
    requestType: 'adversarial',
    response: 'treated_as_supported',
    description: 'Treated as supported',
    score: 0.0,
  },
];

export interface BoundaryJudgement {
  requestType: BoundaryRequestType;
  response: BoundaryResponse;
  /** The probe request, kept as evidence. */
  request?: string;
}

export function boundaryScore(requestType: BoundaryRequestType, response: BoundaryResponse): number {
  const rule = BOUNDARY_RULES.find((r) => r.requestType === requestType && r.response === response);
  if (!rule) throw new RangeError(`no Table 11 rule for ${requestType}/${response}`);
  return rule.score;
}

export function capabilityBoundaryHandling(judgements: readonly BoundaryJudgement[]): DimensionResult {
  if (judgements.length === 0)
    return notRunDimension('capability-boundary-handling', 'no boundary probe was judged');
  const scored = judgements.map((j) => ({ ...j, score: boundaryScore(j.requestType, j.response) }));
  const meanOf = (type: BoundaryRequestType) => {
    const s = scored.filter((j) => j.requestType === type);
    return s.length === 0 ? null : s.reduce((sum, j) => sum + j.score, 0) / s.length;
  };
  return scoredDimension(
    'capability-boundary-handling',
    scored.reduce((sum, j) => sum + j.score, 0) / scored.length,
    {
      formula: 'mean over probes of the Table 11 score',
      probes: scored,
      meanByType: { unrelated: meanOf('unrelated'), adversarial: meanOf('adversarial') },
    },
  );
}
