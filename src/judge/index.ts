// Judge stage: rule checks over the working directory, the blind checklist judge and the probe judge.
export {
  type ItemVerdict,
  JudgeFailure,
  type JudgeOptions,
  type JudgeResult,
  type PairJudgement,
  type TrialCost,
  judgePair,
  judgeTrial,
  pairResult,
  skillTexts,
} from './checklist-judge.js';
export { ADDRESSES_EVALUATOR, MIN_BORROWED_CHARS, type QuoteCheck, verifyQuote } from './evidence.js';
export {
  DEFAULT_MATERIAL_BUDGET,
  type MaterialBudget,
  type RenderedMaterial,
  type TrialMaterial,
  renderMaterial,
} from './material.js';
export { type ProbeJudgement, judgeProbe } from './probe-judge.js';
export {
  DEFAULT_SNAPSHOT_LIMITS,
  type OutputSnapshot,
  type RuleCheckResult,
  type RuleStatus,
  type SnapshotLimits,
  checkRules,
  snapshotFolder,
} from './rule-checks.js';
