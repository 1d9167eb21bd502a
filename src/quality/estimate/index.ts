// The execution-free quality estimate (seed 001): reference sets, retrieval, prediction and holdout evaluation.
import { DIMENSIONS } from '../dimensions.js';
import type { ReferenceSkill } from './estimator.js';

export type { EstimatedSkill, EstimateResult } from './estimate-json.js';
export { estimateSkill } from './estimate-json.js';
export type { ReferenceSkill } from './estimator.js';
export { Estimator, referenceSkill } from './estimator.js';
export type { HoldoutEvaluation } from './evaluate.js';
export { evaluateHoldout } from './evaluate.js';
export { RETRIEVAL_METHODS } from './features.js';
export { readProfiles } from './import-profiles.js';
export { buildReferenceSet } from './reference-set.js';
export { renderEstimateText, renderEvaluationText } from './render-text.js';

/** What the reference set cannot estimate, said once for every skill. */
export function referenceNotes(skills: readonly ReferenceSkill[]): string[] {
  const missing = DIMENSIONS.filter((d) => !skills.some((s) => s.scores[d.id] !== undefined));
  if (missing.length === 0) return [];
  return [
    `Not estimated: ${missing.map((d) => d.name).join(', ')}. No reference skill has a score for them; build the reference set with --profiles <dir> to import scores from audit reports or quality JSON.`,
  ];
}
