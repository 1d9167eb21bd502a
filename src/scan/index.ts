// The static scan as other folders use it (docs/architecture.md): scan a skill or a source, its rules' metadata,
// baselines and model review of findings.

export { BUILTIN_RULES_DIR, RulePackError } from '../core/knowledge.js';
export { type IndicatorList, readIndicatorFile } from './detectors/known-indicators.js';
export type { RuleFolderCheck } from './engine/rule-fixtures.js';
export { checkRuleFolder, fixturesOf } from './engine/rule-fixtures.js';
export type { RulePack } from './engine/rule-pack.js';
export { builtinRules, loadUserRules } from './engine/rule-pack.js';
export type { PrintedText, ScanOptions, SkillScan } from './engine/scan.js';
export { ALL_DETECTORS, scanPrintedText, scanSkill } from './engine/scan.js';
export { reviewFindings } from './review.js';
export { declaredHosts, reachableScripts } from './skill-context.js';
export type { SkillScanResult } from './source/index.js';
export { scanSource } from './source/index.js';
export type { Baseline } from './suppress.js';
export { loadBaseline, writeBaseline } from './suppress.js';
