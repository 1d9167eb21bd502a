// The quality profile's shapes (seed 001, SkillCT): nine dimensions in three groups, each result carrying the
// inputs of its formula as evidence so that every number in a report can be recomputed by hand.

export type DimensionGroup = 'static' | 'dynamic' | 'rubric';

export type DimensionId =
  | 'structural-completeness'
  | 'conciseness'
  | 'description-content-consistency'
  | 'cross-model-robustness'
  | 'intent-perturbation-stability'
  | 'capability-boundary-handling'
  | 'efficiency'
  | 'behavior-chain-semantic-consistency'
  | 'task-abstraction-granularity';

export interface DimensionResult {
  id: string;
  name: string;
  group: DimensionGroup;
  status: 'scored' | 'not_run';
  /** In [0, 1] when scored; null when not run (never a guessed number). */
  score: number | null;
  /** Why the dimension was not run, e.g. `needs --model …`. */
  reason?: string;
  /** The formula's inputs and intermediate values. */
  evidence: Record<string, unknown>;
}

export interface GroupScores {
  static: number | null;
  dynamic: number | null;
  rubric: number | null;
}

export interface QualityProfile {
  dimensions: DimensionResult[];
  groups: GroupScores;
  /** Mean of every scored dimension; null when none was scored. */
  overall: number | null;
  /** What the aggregate covers and what it does not. */
  notes: string[];
}
