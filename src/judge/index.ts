// Judge stage: rule checks over the working directory, the blind checklist judge and the probe judge.
export {
  type ItemVerdict,
  JudgeFailure,
  type JudgeOptions,
  type JudgeResult,
  judgePair,
  judgeTrial,
  type PairJudgement,
  pairResult,
  skillTexts,
  type TrialCost,
} from './checklist-judge.js';
export { ADDRESSES_EVALUATOR, MIN_BORROWED_CHARS, type QuoteCheck, verifyQuote } from './evidence.js';
export {
  DEFAULT_MATERIAL_BUDGET,
  type MaterialBudget,
  type RenderedMaterial,
  renderMaterial,
  type TrialMaterial,
} from './material.js';
export { judgeProbe, type ProbeJudgement } from './probe-judge.js';
export {
  checkRules,
  DEFAULT_SNAPSHOT_LIMITS,
  type OutputSnapshot,
  type RuleCheckResult,
  type RuleStatus,
  type SnapshotLimits,
  snapshotFolder,
} from './rule-checks.js';
