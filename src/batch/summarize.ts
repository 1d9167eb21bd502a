import { type Dirent, existsSync, statSync } from 'node:fs';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PATTERNS, SEVERITY_RANK } from '../core/taxonomy.js';
import type { PatternId, SafetyStatus, Severity } from '../core/types.js';
import { RUNTIME_RULE_LIST } from '../detonate/index.js';
import type { Report } from '../report/index.js';
import { validateReport } from '../report/index.js';
import { ratingOf } from '../score/index.js';
import { errorMessage, UserError } from '../util/errors.js';
import { VERSION } from '../version.js';
import { type CategoryMap, categoryOf, UNCATEGORISED } from './categories.js';
import {
  type FailureRecord,
  MARKER,
  RECORD_VERSION,
  type RunMarker,
  readMarker,
  writeJsonAtomic,
} from './records.js';
import { type BatchConfigFile, readBatchConfig } from './run-batch.js';
import { renderSummaryMarkdown } from './summary-markdown.js';
import {
  type BatchSummary,
  type CategoryRow,
  type CategoryStratumRow,
  type ErrorRow,
  type FailedRow,
  type PatternRow,
  type RuleRow,
  type SkillRow,
  type StratumName,
  type StratumRow,
  SUMMARY_VERSION,
} from './summary-model.js';

// The corpus figures of a batch folder (summary-model.ts is the contract), computed from its files alone: each
// finished run folder's batch.json marker and report.json, read one at a time and reduced at once to the few
// numbers the aggregates need, and failures/*.json. The points the contract leaves open, decided as a reader
// of the tables would expect (docs/batch.md "Figures" says the same in plain words):
// - Which skills count: run folders whose marker carries batch-config.json's configKey (every marker when the
//   folder has no batch-config.json); a content hash counts once. A failure counts when it was recorded under
//   that key and no counted run folder holds the same content (or, for a source that never opened, the same
//   source). A marker whose report.json is missing or breaks the report schema counts as a failure
//   (REPORT_UNREADABLE), as does a damaged marker (MARKER_INVALID): never a skill with made-up numbers.
// - Findings: suppressed findings (baseline, inline ignore) count nowhere. Table 3's H/M/L and a skill row's
//   findings are static findings only, as in the seed; findings the detonation added (runtime rules, see
//   detonate/runtime-rules.ts) are behaviour no static rule explained, so they count in pattern prevalence, the
//   rule table and a skill's patterns, but not in the static columns.
// - Utility: the lead agent's (report.utility, the first of --agents; the others sit in
//   configuration.utilityByAgent), as the seed reports one agent-model configuration per table. A scenario is
//   valid when ScenarioResult.valid (both conditions ran and were judged) and its checklist has items; a skill
//   has utility results when it has at least one valid scenario. Scenario pass rates, PRG, times and tokens
//   come from the raw passed/total/time/token numbers. Table 3's PRG is the mean over valid scenarios (as the
//   seed's: PRG = wi − wo); its EG, CG, ECG and a skill row's PRG and ECG are the reports' own means.
// - Tokens are effective input tokens, input − cached (score/utility.ts effectiveTokens: the q̃ the CG column
//   compares), so the token columns and CG describe the same quantity.
// - Cost: each report's configuration.modelUsage (per stage: cost in USD, input and output tokens, provider
//   calls) summed over the counted skills; a keyless batch spends nothing.
// - Quantiles (medians, p50, p95) interpolate linearly between the two nearest ranks.

export interface SummarizeOptions {
  /** A `--categories` mapping: overrides the category each marker recorded. */
  categories?: CategoryMap;
}

export const SUMMARY_JSON = 'summary.json';
export const SUMMARY_MD = 'summary.md';

const SEVERITIES: readonly Severity[] = ['high', 'medium', 'low'];
const RUNTIME_RULES = new Set(RUNTIME_RULE_LIST.map((r) => r.id));
const TOP_RULES = 20;
const ERROR_EXAMPLES = 5;
/** |PRG| under this is "no change" (seed Table A2's zero%), PRG under its negative a regression (neg%). */
const PRG_EPSILON = 0.001;

const statusCounts = (): Record<SafetyStatus, number> => ({ pass: 0, caution: 0, risky: 0 });
const severityCounts = (): Record<Severity, number> => ({ high: 0, medium: 0, low: 0 });

/** A running mean: a sum and how many values went in; null when none did. */
class Mean {
  sum = 0;
  n = 0;
  add(value: number | null | undefined): void {
    if (typeof value !== 'number' || !Number.isFinite(value)) return;
    this.sum += value;
    this.n += 1;
  }
  get value(): number | null {
    return this.n === 0 ? null : this.sum / this.n;
  }
}

/** Linear interpolation between the nearest ranks of sorted values (the median of an even count is the mean of the middle two). */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] as number;
  return a + (h - lo) * (b - a);
}

const sortedCopy = (values: readonly number[]) => [...values].sort((a, b) => a - b);

/** Table A2's strata of a scenario's no-skill pass rate: low < 0.5 ≤ mid ≤ 0.8 < high. */
export function stratumOf(noSkillRate: number): Exclude<StratumName, 'all'> {
  if (noSkillRate < 0.5) return 'low';
  return noSkillRate <= 0.8 ? 'mid' : 'high';
}

/** One valid scenario of the lead agent, reduced to the numbers the tables use. */
interface ScenarioFacts {
  wi: number;
  wo: number;
  prg: number;
  timeWi: number;
  timeWo: number;
  tokensWi: number;
  tokensWo: number;
}

/** What one report contributes; the report itself is dropped as soon as this is taken from it. */
interface SkillFacts {
  status: SafetyStatus;
  score: number;
  staticFindings: Record<Severity, number>;
  /** Highest severity of each pattern among the unsuppressed findings (static and runtime). */
  patterns: Map<PatternId, Severity>;
  rules: Map<string, { pattern: PatternId; findings: number }>;
  scenarios: ScenarioFacts[];
  prg: number | null;
  eg: number | null;
  cg: number | null;
  ecg: number | null;
  cost: BatchSummary['cost'];
}

const effectiveInput = (t: { input: number; cached: number }) => Math.max(0, t.input - t.cached);

function validScenarios(report: Report): ScenarioFacts[] {
  const out: ScenarioFacts[] = [];
  for (const s of report.utility?.scenarios ?? []) {
    const items = s.withSkill.total;
    if (!s.valid || !(items > 0)) continue;
    out.push({
      wi: s.withSkill.passed / items,
      wo: s.noSkill.passed / items,
      prg: (s.withSkill.passed - s.noSkill.passed) / items,
      timeWi: s.withSkill.timeMs / 1000,
      timeWo: s.noSkill.timeMs / 1000,
      tokensWi: effectiveInput(s.withSkill.tokens),
      tokensWo: effectiveInput(s.noSkill.tokens),
    });
  }
  return out;
}

const finite = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** Model spending recorded in the report, summed over its stages (model/usage.ts Usage per stage). */
function reportCost(report: Report): BatchSummary['cost'] {
  const total = { usd: 0, inputTokens: 0, outputTokens: 0, calls: 0 };
  const byStage = report.configuration.modelUsage;
  if (!byStage || typeof byStage !== 'object') return total;
  for (const usage of Object.values(byStage as Record<string, Record<string, unknown> | null>)) {
    if (!usage || typeof usage !== 'object') continue;
    total.usd += finite(usage.cost);
    total.inputTokens += finite(usage.input);
    total.outputTokens += finite(usage.output);
    total.calls += finite(usage.calls);
  }
  return total;
}

function skillFacts(report: Report): SkillFacts {
  const staticFindings = severityCounts();
  const patterns = new Map<PatternId, Severity>();
  const rules = new Map<string, { pattern: PatternId; findings: number }>();
  for (const f of report.safety.findings) {
    if (f.suppressed) continue;
    if (!RUNTIME_RULES.has(f.rule)) staticFindings[f.severity] += 1;
    const highest = patterns.get(f.pattern);
    if (!highest || SEVERITY_RANK[f.severity] > SEVERITY_RANK[highest]) patterns.set(f.pattern, f.severity);
    const rule = rules.get(f.rule) ?? { pattern: f.pattern, findings: 0 };
    rule.findings += 1;
    rules.set(f.rule, rule);
  }
  const u = report.utility;
  return {
    status: report.safety.status,
    score: ratingOf(report.safety),
    staticFindings,
    patterns,
    rules,
    scenarios: validScenarios(report),
    prg: u?.prg ?? null,
    eg: u?.eg ?? null,
    cg: u?.cg ?? null,
    ecg: u?.ecg ?? null,
    cost: reportCost(report),
  };
}

/** The running sums of one row of Table 3 (a category, or every skill) and its Figure A2 means. */
class Group {
  skills = 0;
  statuses = statusCounts();
  score = new Mean();
  findings = severityCounts();
  withUtility = 0;
  scenarios = 0;
  wi = new Mean();
  wo = new Mean();
  prg = new Mean();
  eg = new Mean();
  cg = new Mean();
  ecg = new Mean();
  timeWi = new Mean();
  timeWo = new Mean();
  tokensWi = new Mean();
  tokensWo = new Mean();
  strata = { low: new Mean(), mid: new Mean(), high: new Mean(), all: new Mean() };

  add(facts: SkillFacts): void {
    this.skills += 1;
    this.statuses[facts.status] += 1;
    this.score.add(facts.score);
    for (const s of SEVERITIES) this.findings[s] += facts.staticFindings[s];
    if (facts.scenarios.length === 0) return;
    this.withUtility += 1;
    this.eg.add(facts.eg);
    this.cg.add(facts.cg);
    this.ecg.add(facts.ecg);
    for (const s of facts.scenarios) {
      this.scenarios += 1;
      this.wi.add(s.wi);
      this.wo.add(s.wo);
      // Over scenarios, as seed 000's Table 3 (its PRG column is wi − wo in every row).
      this.prg.add(s.prg);
      this.timeWi.add(s.timeWi);
      this.timeWo.add(s.timeWo);
      this.tokensWi.add(s.tokensWi);
      this.tokensWo.add(s.tokensWo);
      this.strata[stratumOf(s.wo)].add(s.prg);
      this.strata.all.add(s.prg);
    }
  }

  row(category: string): CategoryRow {
    return {
      category,
      skills: this.skills,
      statuses: { ...this.statuses },
      safetyScore: this.score.value,
      findings: { ...this.findings },
      skillsWithUtility: this.withUtility,
      scenarios: this.scenarios,
      passRate: { withSkill: this.wi.value, noSkill: this.wo.value },
      prg: this.prg.value,
      eg: this.eg.value,
      cg: this.cg.value,
      ecg: this.ecg.value,
      timeS: { withSkill: this.timeWi.value, noSkill: this.timeWo.value },
      tokens: { withSkill: this.tokensWi.value, noSkill: this.tokensWo.value },
    };
  }

  strataRow(category: string): CategoryStratumRow {
    const { low, mid, high, all } = this.strata;
    return { category, low: low.value, mid: mid.value, high: high.value, all: all.value };
  }
}

function stratumRow(stratum: StratumName, prgs: readonly number[], allValid: number): StratumRow {
  const n = prgs.length;
  const share = (test: (prg: number) => boolean) => (n === 0 ? null : prgs.filter(test).length / n);
  const sorted = sortedCopy(prgs);
  return {
    stratum,
    n,
    rate: allValid === 0 ? null : n / allValid,
    meanPrg: n === 0 ? null : prgs.reduce((a, b) => a + b, 0) / n,
    medianPrg: quantile(sorted, 0.5),
    zero: share((prg) => Math.abs(prg) < PRG_EPSILON),
    negative: share((prg) => prg < -PRG_EPSILON),
  };
}

/** The batch's settings; a batch-config.json that is there but cannot be read is an error, not "no settings". */
function batchConfig(dir: string): BatchConfigFile | null {
  const config = readBatchConfig(dir);
  const path = join(dir, 'batch-config.json');
  if (config === null && existsSync(path))
    throw new UserError('UNREADABLE', `${path}: not a batch configuration this version can read`, path);
  if (config !== null && (typeof config.configKey !== 'string' || !Array.isArray(config.config?.stages)))
    throw new UserError(
      'UNREADABLE',
      `${path}: not a batch configuration (configKey and config.stages)`,
      path,
    );
  return config;
}

/** Names in a folder (sorted, so the output does not depend on the file system's order); none if unreadable. */
async function names(path: string, keep: (entry: Dirent) => boolean): Promise<string[]> {
  try {
    return (await readdir(path, { withFileTypes: true }))
      .filter(keep)
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** The report of a finished run folder, or why it cannot be used. */
async function readReport(runDir: string): Promise<{ report: Report } | { error: string }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(join(runDir, 'report.json'), 'utf8'));
  } catch (error) {
    return { error: `report.json: ${errorMessage(error)}` };
  }
  const problems = validateReport(parsed);
  if (problems.length > 0)
    return { error: `report.json breaks the report schema: ${problems.slice(0, 3).join('; ')}` };
  return { report: parsed as Report };
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** A marker with the fields the figures use (ours always has them; a damaged or hand-made one may not). */
function isUsableMarker(m: RunMarker): boolean {
  return (
    isText(m.contentHash) &&
    isText(m.configKey) &&
    isText(m.source) &&
    isText(m.name) &&
    (m.category === null || m.category === undefined || typeof m.category === 'string')
  );
}

function isFailureRecord(value: unknown): value is FailureRecord {
  const r = value as Partial<FailureRecord> | null;
  return (
    !!r &&
    typeof r === 'object' &&
    r.version === RECORD_VERSION &&
    typeof r.source === 'string' &&
    typeof r.configKey === 'string' &&
    typeof r.code === 'string' &&
    typeof r.message === 'string'
  );
}

/**
 * Everything the figures need, added one skill at a time: running sums per category and overall, and the few
 * per-skill or per-scenario numbers that medians and quantiles need (a number each, never a report).
 */
class Corpus {
  readonly overall = new Group();
  readonly groups = new Map<string, Group>();
  readonly statuses = statusCounts();
  readonly scores: number[] = [];
  readonly auditMs: number[] = [];
  // Stage names come from the markers: a Map, so a name such as __proto__ is only a name.
  readonly byStage = new Map<string, number>();
  readonly strata: Record<StratumName, number[]> = { low: [], mid: [], high: [], all: [] };
  readonly prevalence = new Map<PatternId, Record<Severity, number>>();
  readonly rules = new Map<string, { pattern: PatternId; findings: number; skills: number }>();
  readonly cost = { usd: 0, inputTokens: 0, outputTokens: 0, calls: 0 };
  readonly skills: SkillRow[] = [];
  readonly failures: FailedRow[] = [];
  otherConfiguration = 0;

  addSkill(facts: SkillFacts, marker: RunMarker, category: string, runDir: string): void {
    this.overall.add(facts);
    const group = this.groups.get(category) ?? new Group();
    group.add(facts);
    this.groups.set(category, group);
    this.statuses[facts.status] += 1;
    this.scores.push(facts.score);
    for (const s of facts.scenarios) {
      this.strata[stratumOf(s.wo)].push(s.prg);
      this.strata.all.push(s.prg);
    }
    for (const [pattern, severity] of facts.patterns) {
      const counts = this.prevalence.get(pattern) ?? severityCounts();
      counts[severity] += 1;
      this.prevalence.set(pattern, counts);
    }
    for (const [rule, { pattern, findings }] of facts.rules) {
      const row = this.rules.get(rule) ?? { pattern, findings: 0, skills: 0 };
      row.findings += findings;
      row.skills += 1;
      this.rules.set(rule, row);
    }
    this.cost.usd += facts.cost.usd;
    this.cost.inputTokens += facts.cost.inputTokens;
    this.cost.outputTokens += facts.cost.outputTokens;
    this.cost.calls += facts.cost.calls;
    const auditMs = finite(marker.timings?.totalMs);
    this.auditMs.push(auditMs);
    const stages = marker.timings?.stages;
    if (stages && typeof stages === 'object' && !Array.isArray(stages))
      for (const [stage, ms] of Object.entries(stages))
        this.byStage.set(stage, (this.byStage.get(stage) ?? 0) + finite(ms));
    this.skills.push({
      id: marker.contentHash,
      name: marker.name,
      source: marker.source,
      category,
      status: facts.status,
      score: facts.score,
      findings: facts.staticFindings,
      patterns: PATTERNS.map((p) => p.id).filter((id) => facts.patterns.has(id)),
      prg: facts.prg,
      ecg: facts.ecg,
      auditMs,
      runDir,
    });
  }

  histogram(): BatchSummary['scoreHistogram'] {
    const bins = Array.from({ length: 10 }, (_, i) => ({
      from: 10 * i,
      to: i === 9 ? 100 : 9 + 10 * i,
      count: 0,
    }));
    for (const score of this.scores) {
      const bin = bins[Math.min(9, Math.max(0, Math.floor(score / 10)))];
      if (bin) bin.count += 1;
    }
    return bins;
  }

  patterns(): PatternRow[] {
    return PATTERNS.map((p) => {
      const counts = this.prevalence.get(p.id) ?? severityCounts();
      return { pattern: p.id, name: p.name, skills: counts, any: counts.high + counts.medium + counts.low };
    });
  }

  topRules(): RuleRow[] {
    return [...this.rules.entries()]
      .map(([rule, r]) => ({ rule, pattern: r.pattern, findings: r.findings, skills: r.skills }))
      .sort((a, b) => b.findings - a.findings || b.skills - a.skills || (a.rule < b.rule ? -1 : 1))
      .slice(0, TOP_RULES);
  }

  errors(): ErrorRow[] {
    const byCode = new Map<string, ErrorRow>();
    for (const f of this.failures) {
      const row = byCode.get(f.code) ?? { code: f.code, count: 0, examples: [] };
      row.count += 1;
      if (row.examples.length < ERROR_EXAMPLES) row.examples.push({ source: f.source, message: f.message });
      byCode.set(f.code, row);
    }
    return [...byCode.values()].sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : 1));
  }

  time(): BatchSummary['time'] {
    const sorted = sortedCopy(this.auditMs);
    const totalMs = this.auditMs.reduce((a, b) => a + b, 0);
    return {
      totalMs,
      meanMs: sorted.length === 0 ? null : totalMs / sorted.length,
      p50Ms: quantile(sorted, 0.5),
      p95Ms: quantile(sorted, 0.95),
      byStage: Object.fromEntries(this.byStage),
    };
  }

  summary(batch: BatchConfigFile | null): BatchSummary {
    // Most skills first; equal sizes by name.
    const categories = [...this.groups.entries()].sort(
      ([a, ga], [b, gb]) => gb.skills - ga.skills || (a < b ? -1 : a > b ? 1 : 0),
    );
    const valid = this.strata.all.length;
    return {
      version: SUMMARY_VERSION,
      generatedAt: new Date().toISOString(),
      tool: { name: 'skillaudit', version: VERSION },
      configuration: batch
        ? {
            ...batch.config,
            key: batch.configKey,
            stages: batch.config.stages,
            corpus: batch.corpus,
            startedAt: batch.startedAt,
          }
        : null,
      counts: {
        total: this.overall.skills + this.failures.length,
        audited: this.overall.skills,
        failed: this.failures.length,
        otherConfiguration: this.otherConfiguration,
      },
      statuses: this.statuses,
      scoreHistogram: this.histogram(),
      scoreMean: this.overall.score.value,
      scoreMedian: quantile(sortedCopy(this.scores), 0.5),
      categories: categories.map(([name, g]) => g.row(name)),
      overall: this.overall.row('overall'),
      strata: (['low', 'mid', 'high', 'all'] as const).map((s) => stratumRow(s, this.strata[s], valid)),
      strataByCategory: categories.map(([name, g]) => g.strataRow(name)),
      patterns: this.patterns(),
      rules: this.topRules(),
      errors: this.errors(),
      time: this.time(),
      cost: this.cost,
      skills: this.skills,
      failures: this.failures,
    };
  }
}

/** Computes the summary of a batch folder from its files. */
export async function summarizeBatch(dir: string, options: SummarizeOptions = {}): Promise<BatchSummary> {
  let isFolder = false;
  try {
    isFolder = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isFolder) throw new UserError('NOT_FOUND', `${dir}: no such batch folder`, dir);
  const batch = batchConfig(dir);
  const key = batch?.configKey ?? null;
  const corpus = new Corpus();
  const seenContent = new Set<string>();
  const finishedSources = new Set<string>();

  for (const folder of await names(join(dir, 'runs'), (e) => e.isDirectory())) {
    const runDir = join('runs', folder);
    const marker = readMarker(join(dir, runDir));
    // No marker: an audit that never finished (or is running now); a rerun audits it again.
    if (!marker) continue;
    if (!isUsableMarker(marker)) {
      corpus.failures.push({
        source: runDir,
        name: null,
        code: 'MARKER_INVALID',
        message: `${runDir}/${MARKER} lacks a content hash, configuration key, source or name`,
        attempts: 1,
      });
      continue;
    }
    if (key !== null && marker.configKey !== key) {
      corpus.otherConfiguration += 1;
      continue;
    }
    if (seenContent.has(marker.contentHash)) continue;
    seenContent.add(marker.contentHash);
    finishedSources.add(marker.source);
    const read = await readReport(join(dir, runDir));
    if ('error' in read) {
      corpus.failures.push({
        source: marker.source,
        name: marker.name,
        code: 'REPORT_UNREADABLE',
        message: `${runDir}/${read.error}`,
        attempts: 1,
      });
      continue;
    }
    const category =
      categoryOf(
        { name: marker.name, source: marker.source, contentHash: marker.contentHash },
        marker.category ?? null,
        options.categories,
      ) ?? UNCATEGORISED;
    corpus.addSkill(skillFacts(read.report), marker, category, runDir);
  }

  for (const file of await names(join(dir, 'failures'), (e) => e.isFile() && e.name.endsWith('.json'))) {
    let record: unknown;
    try {
      record = JSON.parse(await readFile(join(dir, 'failures', file), 'utf8'));
    } catch {
      continue;
    }
    if (!isFailureRecord(record)) continue;
    if (key !== null && record.configKey !== key) continue;
    // A finished run of the same content (or of the same source, for a source that never opened) supersedes it.
    if (record.contentHash ? seenContent.has(record.contentHash) : finishedSources.has(record.source))
      continue;
    corpus.failures.push({
      source: record.source,
      name: typeof record.name === 'string' ? record.name : null,
      code: record.code,
      message: record.message,
      attempts: typeof record.attempts === 'number' && record.attempts >= 0 ? record.attempts : 1,
    });
  }
  return corpus.summary(batch);
}

/** Computes the summary and writes summary.json (atomically) and summary.md into the batch folder. */
export async function writeSummary(dir: string, options: SummarizeOptions = {}): Promise<BatchSummary> {
  const summary = await summarizeBatch(dir, options);
  await writeJsonAtomic(join(dir, SUMMARY_JSON), summary);
  // Renamed into place like summary.json, so a reader never sees half a file.
  const temp = join(dir, `${SUMMARY_MD}.${process.pid}.tmp`);
  await writeFile(temp, renderSummaryMarkdown(summary), { mode: 0o600 });
  await rename(temp, join(dir, SUMMARY_MD));
  return summary;
}
