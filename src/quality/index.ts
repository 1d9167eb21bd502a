// The quality profile (seed 001, SkillCT): static dimensions scored here, dynamic and rubric dimensions scored
// from agent runs and judgements by the pure functions below, all aggregated by `aggregateProfile`.
export type { BoundaryJudgement, BoundaryRequestType, BoundaryResponse } from './boundary.js';
export { BOUNDARY_RULES, boundaryScore, capabilityBoundaryHandling } from './boundary.js';
export { judgeBoundary } from './boundary-judge.js';
export { CONCISENESS, conciseness } from './conciseness.js';
export { CONSISTENCY, descriptionContentConsistency } from './consistency.js';
export type { DimensionSpec } from './dimensions.js';
export { DIMENSIONS, notRunDimension } from './dimensions.js';
export type {
  EfficiencyObservation,
  EfficiencyQuantity,
  OperatingInterval,
  RunEfficiency,
} from './efficiency.js';
export { EFFICIENCY_SETTINGS, efficiency, normaliseToInterval, runEfficiency } from './efficiency.js';
export { aggregateProfile, qualityProfile, staticQualityProfile } from './profile.js';
export type { QualitySkillResult } from './render-text.js';
export { renderQualityText } from './render-text.js';
export type { CrossModelOutcome, PerturbationOutcome } from './robustness.js';
export { crossModelRobustness, intentPerturbationStability } from './robustness.js';
export { judgeBehaviorChain, judgeTaskGranularity } from './rubric-judge.js';
export type { RubricDimensionId, RubricJudgement, RubricLevel } from './rubrics.js';
export { BEHAVIOR_CHAIN_RUBRIC, RUBRICS, rubricDimension, TASK_GRANULARITY_RUBRIC } from './rubrics.js';
export { efficiencyObservation, type MeasuredRun } from './run-measures.js';
export { STRUCTURAL_CRITERIA, structuralCompleteness } from './structural.js';
export { estimateTokens } from './tokens.js';
export type { DimensionGroup, DimensionId, DimensionResult, GroupScores, QualityProfile } from './types.js';
