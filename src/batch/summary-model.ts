import type { PatternId, SafetyStatus, Severity } from '../core/types.js';

// The corpus summary (`summary.json`, schema docs/batch-summary.schema.json): computed from the batch
// folder's files alone (run folders with their batch.json marker and report.json, failures/*.json), so
// `skillaudit batch summarize DIR` recomputes it at any time. Figures follow seed 000 section 5: Table 3 by
// category, Table A2 by no-skill baseline stratum. A mean over no values is null (shown as "—"), never 0.

export const SUMMARY_VERSION = 1;

/** Mean values of one group of skills (a category, or every skill). */
export interface CategoryRow {
  category: string;
  /** Skills with a finished audit in this group. */
  skills: number;
  statuses: Record<SafetyStatus, number>;
  /** Mean safety rating (0-100, in the verdict's bands) over the group's skills. */
  safetyScore: number | null;
  /** Static findings (not suppressed) by severity, summed over the group's skills. */
  findings: Record<Severity, number>;
  /** Skills with utility results (a model ran the paired trials). */
  skillsWithUtility: number;
  /** Valid scenarios (both conditions ran and were judged) over those skills. */
  scenarios: number;
  /** Mean pass rate (passed items / checklist items) over valid scenarios, with and without the skill. */
  passRate: { withSkill: number | null; noSkill: number | null };
  /** PRG: mean over valid scenarios (seed 000 Table 3: PRG = wi − wo). EG, CG, ECG: mean of the skills' own means. */
  prg: number | null;
  eg: number | null;
  cg: number | null;
  ecg: number | null;
  /** Mean agent wall time per valid scenario, seconds. */
  timeS: { withSkill: number | null; noSkill: number | null };
  /** Mean effective input tokens (input − cached: the q̃ that CG compares) per valid scenario. */
  tokens: { withSkill: number | null; noSkill: number | null };
}

export type StratumName = 'low' | 'mid' | 'high' | 'all';

/** Table A2: valid scenarios by their no-skill pass rate (low < 0.5 ≤ mid ≤ 0.8 < high). */
export interface StratumRow {
  stratum: StratumName;
  n: number;
  /** Share of all valid scenarios, 0-1. */
  rate: number | null;
  meanPrg: number | null;
  medianPrg: number | null;
  /** Share of scenarios with |PRG| < 0.001, and with PRG < −0.001, 0-1. */
  zero: number | null;
  negative: number | null;
}

/** Figure A2: mean PRG by category and stratum. */
export interface CategoryStratumRow {
  category: string;
  low: number | null;
  mid: number | null;
  high: number | null;
  all: number | null;
}

export interface PatternRow {
  pattern: PatternId;
  name: string;
  /** Skills with at least one unsuppressed finding of this pattern, by the highest severity among them. */
  skills: Record<Severity, number>;
  /** Skills with at least one such finding, whatever its severity. */
  any: number;
}

export interface RuleRow {
  rule: string;
  pattern: PatternId;
  findings: number;
  skills: number;
}

export interface ErrorRow {
  code: string;
  count: number;
  /** Up to five sources that failed so. */
  examples: { source: string; message: string }[];
}

/** One row of the skill table (the dashboard links each to its report.html). */
export interface SkillRow {
  id: string;
  name: string;
  source: string;
  category: string;
  status: SafetyStatus;
  score: number;
  findings: Record<Severity, number>;
  /** Patterns of its unsuppressed findings. */
  patterns: PatternId[];
  prg: number | null;
  ecg: number | null;
  /** Wall time of the audit, ms. */
  auditMs: number;
  /** Run folder, relative to the batch folder (report.html is inside). */
  runDir: string;
}

export interface FailedRow {
  source: string;
  name: string | null;
  code: string;
  message: string;
  attempts: number;
}

export interface BatchSummary {
  version: typeof SUMMARY_VERSION;
  generatedAt: string;
  tool: { name: 'skillaudit'; version: string };
  /** The configuration of the batch (batch-config.json) and its key; null when the folder has none. */
  configuration: { key: string; stages: string[]; [setting: string]: unknown } | null;
  counts: {
    /** Skills with a finished audit plus sources or skills that failed. */
    total: number;
    audited: number;
    failed: number;
    /** Finished run folders made under another configuration than the batch's (left out of every figure). */
    otherConfiguration: number;
  };
  statuses: Record<SafetyStatus, number>;
  /** Safety scores in bins of ten: 10-19, 20-29, …, 90-100 (the last bin holds 100). */
  scoreHistogram: { from: number; to: number; count: number }[];
  scoreMean: number | null;
  scoreMedian: number | null;
  /** Table 3, one row per category (most skills first), and `overall` over all skills. */
  categories: CategoryRow[];
  overall: CategoryRow;
  /** Table A2 (empty rows, n = 0, when no utility ran). */
  strata: StratumRow[];
  /** Figure A2. */
  strataByCategory: CategoryStratumRow[];
  /** All 21 patterns in taxonomy order. */
  patterns: PatternRow[];
  /** The most frequent rules (at most 20), most findings first. */
  rules: RuleRow[];
  errors: ErrorRow[];
  /** Audit wall time over finished skills, ms. */
  time: {
    totalMs: number;
    meanMs: number | null;
    p50Ms: number | null;
    p95Ms: number | null;
    byStage: Record<string, number>;
  };
  /** Model spending summed over the skills' reports (zero for keyless batches). */
  cost: { usd: number; inputTokens: number; outputTokens: number; calls: number };
  skills: SkillRow[];
  failures: FailedRow[];
}
