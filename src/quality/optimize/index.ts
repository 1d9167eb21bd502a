// SkillOpt: rewrite a skill's SKILL.md where its quality profile is weakest, keep the best-scoring candidate
// that passes every guard, and write it as a new folder with a diff and a report (docs/optimize.md).
export { candidateSkill, expectedName, type Rewrite, renderSkillMd } from './candidate.js';
export { answerProblems, contentProblems, DESCRIPTION_MAX, scanProblems } from './guards.js';
export {
  type CandidateRecord,
  DEFAULT_ROUNDS,
  isBetter,
  type OptimizeOptions,
  type OptimizeResult,
  optimizeSkill,
  type Scores,
  type StopReason,
  type Version,
} from './optimize.js';
export { checkOutDir, DIFF_FILE, REPORT_FILE, writeOutput } from './output.js';
export { feedbackPrompt, firstPrompt, type RewriteAnswer, rewriteAnswer, systemPrompt } from './prompt.js';
export { renderOptimizeTable } from './table.js';
export {
  findTargets,
  SECTION_PATTERNS,
  sectionsPresent,
  TARGET_IDS,
  type Target,
  type TargetId,
} from './targets.js';
