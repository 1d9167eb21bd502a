import { notRunDimension, scoredDimension } from './dimensions.js';
import type { DimensionResult } from './types.js';

// The human-assisted rubrics, seed 001 Tables 13 and 14, verbatim. A judge (model or human) picks one level per
// subject (a trajectory for Table 13, the skill for Table 14); the dimension is the mean of the levels picked.

export interface RubricLevel {
  score: number;
  criterion: string;
}

export const BEHAVIOR_CHAIN_RUBRIC: readonly RubricLevel[] = [
  {
    score: 1.0,
    criterion:
      'All actions directly support the declared objective, with no irrelevant or redundant operations.',
  },
  { score: 0.75, criterion: 'Most actions support the objective, with only one or two peripheral actions.' },
  {
    score: 0.5,
    criterion:
      'Only part of the behavior chain supports the objective, with clear irrelevant or redundant operations.',
  },
  {
    score: 0.25,
    criterion:
      'Most actions are weakly related or unrelated to the declared objective, resulting in a poorly aligned behavior chain.',
  },
  { score: 0.0, criterion: 'The behavior chain is almost entirely unrelated to the declared objective.' },
];

export const TASK_GRANULARITY_RUBRIC: readonly RubricLevel[] = [
  {
    score: 1.0,
    criterion:
      'The Skill represents a complete and meaningful unit of work with a clear and self-contained responsibility.',
  },
  {
    score: 0.75,
    criterion:
      'The task scope is generally appropriate but is slightly narrower or broader than the intended unit of work.',
  },
  { score: 0.5, criterion: 'The responsibility is noticeably too narrow or too broad.' },
  {
    score: 0.25,
    criterion:
      'The task scope is severely misaligned and would substantially benefit from being split or combined with other functionality.',
  },
  {
    score: 0.0,
    criterion:
      'The Skill either reduces to an isolated operation with little additional procedure or attempts to cover an entire domain without a coherent task scope.',
  },
];

/** What each rubric grades, for the evidence. */
const RUBRIC_SOURCE = {
  'behavior-chain-semantic-consistency': 'trajectories (seed 001 Table 13)',
  'task-abstraction-granularity': 'judgements of the skill (seed 001 Table 14)',
} as const;

export const RUBRICS: Readonly<
  Record<'behavior-chain-semantic-consistency' | 'task-abstraction-granularity', readonly RubricLevel[]>
> = {
  'behavior-chain-semantic-consistency': BEHAVIOR_CHAIN_RUBRIC,
  'task-abstraction-granularity': TASK_GRANULARITY_RUBRIC,
};

export type RubricDimensionId = keyof typeof RUBRICS;

export interface RubricJudgement {
  /** One of the rubric's levels. */
  score: number;
  /** What was judged: a trajectory path or the skill. */
  subject: string;
  rationale?: string;
}

/** The rubric level a judgement names; a score that is not a level is a judge error, never rounded into one. */
export function rubricLevel(id: RubricDimensionId, score: number): RubricLevel {
  const level = RUBRICS[id].find((l) => l.score === score);
  if (!level)
    throw new RangeError(`${score} is not a level of the ${id} rubric (levels 0, 0.25, 0.5, 0.75, 1)`);
  return level;
}

export function rubricDimension(
  id: RubricDimensionId,
  judgements: readonly RubricJudgement[],
): DimensionResult {
  if (judgements.length === 0) return notRunDimension(id, 'no judgement was made');
  const graded = judgements.map((j) => ({ ...j, criterion: rubricLevel(id, j.score).criterion }));
  return scoredDimension(id, graded.reduce((sum, j) => sum + j.score, 0) / graded.length, {
    formula: `mean of rubric levels over ${RUBRIC_SOURCE[id]}`,
    judgements: graded,
  });
}
