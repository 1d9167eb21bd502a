// Scores and the safety decision as other folders use them: eq. 8's safety score, the learned pass / caution /
// risky decision and its evaluation, the utility formulas.

export { RATING_BANDS, safetyRating } from './rating.js';
export { assessSafety, SEVERITY_PENALTY, safetyScore } from './safety.js';
export type { ConditionResult, PairResult, UtilityScores } from './utility.js';
export { DEFAULT_ALPHA, probeExploitability, utilityScores } from './utility.js';
export { decide, explain, ratingOf, statusReason } from './verdict.js';
export type { CrossSource, LabelledSkill, Metrics, Prediction, VerdictLabel } from './verdict-eval.js';
export { accuracy, crossSource, groupBy, metrics, prediction } from './verdict-eval.js';
export {
  carries,
  DECISIVE_INDICATORS,
  DNS_NAME_FLOW,
  DOWNLOADED_RUN_FLOW,
  isSafetyFinding,
  ORDER_TO_AGENT,
  OWN_SERVICE_SECRET,
  OWN_STORED_SECRET,
  UNNAMED_HOST_FLOW,
} from './verdict-features.js';
