import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BatchConfig, configKey } from '../../../src/batch/config.js';
import type { FailureRecord, RunMarker } from '../../../src/batch/records.js';
import { prepareBatchDir } from '../../../src/batch/run-batch.js';
import { summarizeBatch, writeSummary } from '../../../src/batch/summarize.js';
import type { BatchSummary, CategoryRow } from '../../../src/batch/summary-model.js';
import type { PatternId, SafetyStatus, Severity } from '../../../src/core/types.js';
import type { Report, ReportFinding, ScenarioResult } from '../../../src/report/model.js';
import { summarySchemaErrors } from '../../support/batch/summary-schema.js';
import { scanOnlyReport } from '../../support/report-fixtures.js';

// summarizeBatch over a batch folder built by hand: every figure below is worked out in the comments from the
// numbers written into the run folders, never taken from the code under test.

const CONFIG: BatchConfig = { stages: ['scan', 'quality', 'utility'], limits: {} };
const KEY = configKey(CONFIG);
const OTHER_KEY = 'b2b2b2b2b2b2b2b2';
const hash = (c: string) => c.repeat(64);
const HOSTILE_NAME = 'delta|<img src=x onerror=alert(1)> [x](javascript:alert(1)) @everyone';

let dir: string;

function finding(rule: string, pattern: PatternId, severity: Severity, suppressed = false): ReportFinding {
  return {
    id: `${rule}-${Math.random().toString(36).slice(2, 8)}`,
    pattern,
    family: 'data_exfiltration',
    severity,
    confidence: 0.8,
    file: 'SKILL.md',
    line: 1,
    endLine: 1,
    evidence: 'x',
    rule,
    message: 'm',
    rationale: 'r',
    verdict: 'no_probe',
    exploitConfidence: 0.6,
    runtimeEvidence: [],
    ...(suppressed ? { suppressed: { by: 'inline' as const, reason: 'accepted' } } : {}),
  };
}

/** One paired scenario: checklist size, items passed with / without the skill, agent ms, input and cached tokens. */
function scenario(
  id: string,
  total: number,
  [wi, wo]: [number, number],
  [msWi, msWo]: [number, number],
  [inWi, cachedWi, inWo, cachedWo]: [number, number, number, number],
  valid = true,
): ScenarioResult {
  const trial = (passed: number, timeMs: number, input: number, cached: number) => ({
    agent: 'builtin / anthropic/claude-sonnet-4-5',
    passed,
    total,
    timeMs,
    tokens: { input, cached, output: 77 },
    skillLoaded: null,
    trajectory: `trials/${id}/result.json`,
  });
  return {
    id,
    instruction: 'do it',
    checklist: [],
    withSkill: trial(wi, msWi, inWi, cachedWi),
    noSkill: trial(wo, msWo, inWo, cachedWo),
    prg: valid ? (wi - wo) / total : null,
    valid,
    ...(valid ? {} : { invalidReason: 'no_skill: judge failed' }),
  };
}

interface Built {
  status: SafetyStatus;
  score: number;
  findings?: ReportFinding[];
  utility?: Report['utility'];
  modelUsage?: Record<string, unknown>;
}

function report({ status, score, findings = [], utility = null, modelUsage }: Built): Report {
  const base = scanOnlyReport();
  return {
    ...base,
    verdict: { ...base.verdict, status },
    // The batch reads the rating (the headline number); the finding score is set alike for the tables' means.
    safety: { ...base.safety, status, score, decision: { ...base.safety.decision, rating: score }, findings },
    utility,
    configuration: { ...base.configuration, ...(modelUsage ? { modelUsage } : {}) },
  };
}

function runFolder(
  folder: string,
  marker: Partial<RunMarker> & { contentHash: string; name: string },
  content: Report | string | null,
  root = dir,
): void {
  const runDir = join(root, 'runs', folder);
  mkdirSync(runDir, { recursive: true });
  const full: RunMarker = {
    version: 1,
    configKey: KEY,
    source: `/corpus/${marker.name}`,
    category: null,
    startedAt: '2026-12-01T00:00:00.000Z',
    finishedAt: '2026-12-01T00:00:01.000Z',
    timings: { totalMs: 0, stages: {} },
    worker: 'test:1',
    ...marker,
  };
  writeFileSync(join(runDir, 'batch.json'), JSON.stringify(full));
  if (content !== null)
    writeFileSync(
      join(runDir, 'report.json'),
      typeof content === 'string' ? content : JSON.stringify(content),
    );
}

function failure(file: string, record: Partial<FailureRecord>): void {
  mkdirSync(join(dir, 'failures'), { recursive: true });
  const full: FailureRecord = {
    version: 1,
    key: file,
    source: '/corpus/x',
    contentHash: null,
    name: null,
    category: null,
    configKey: KEY,
    code: 'AUDIT_FAILED',
    message: 'failed',
    attempts: 1,
    at: '2026-12-01T00:00:00.000Z',
    ...record,
  };
  writeFileSync(join(dir, 'failures', `${file}.json`), JSON.stringify(full));
}

const usage = (input: number, output: number, calls: number, cost: number) => ({
  input,
  cached: 0,
  output,
  calls,
  cacheHits: 0,
  cost,
  unpricedCalls: 0,
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skillaudit-summary-'));
  // batch-config.json as the batch writes it when it starts.
  await prepareBatchDir(dir, CONFIG, ['/corpus']);

  // alpha (finance): caution 85. Static E2 high and P4 medium; R2 low suppressed; a runtime PE3 high.
  // Scenarios: s1 4 items 4/2 (wi 1, wo 0.5 → mid, PRG 0.5), 10 s / 20 s, tokens 3000−1000=2000 / 5000;
  // s2 5 items 4/4 (wi 0.8, wo 0.8 → mid, PRG 0), 30 s / 10 s, tokens 1000 / 1000; s3 invalid (left out).
  // Its own means: PRG (0.5+0)/2 = 0.25; EG (0.5, clip(−2)=−1) → −0.25; CG (0.6, 0) → 0.3; ECG (0.55, −0.5) → 0.025.
  runFolder(
    'alpha-aaaaaaaa',
    {
      contentHash: hash('a'),
      name: 'alpha',
      category: 'finance',
      timings: { totalMs: 1000, stages: { scan: 400, quality: 600 } },
    },
    report({
      status: 'caution',
      score: 85,
      findings: [
        finding('code.env-harvest', 'E2', 'high'),
        finding('md.persistence-hide', 'P4', 'medium'),
        finding('code.request-no-timeout', 'R2', 'low', true),
        finding('runtime.credential-read', 'PE3', 'high'),
      ],
      utility: {
        prg: 0.25,
        eg: -0.25,
        cg: 0.3,
        ecg: 0.025,
        deltaT: 0,
        deltaQ: 0,
        ceiling: false,
        scenarios: [
          scenario('s1', 4, [4, 2], [10_000, 20_000], [3000, 1000, 5000, 0]),
          scenario('s2', 5, [4, 4], [30_000, 10_000], [1000, 0, 1000, 0]),
          scenario('s3', 4, [4, 0], [1000, 1000], [10, 0, 10, 0], false),
        ],
      },
      modelUsage: { judge: usage(100, 10, 2, 0.01), 'trials.builtin': usage(1000, 50, 5, 0.1) },
    }),
  );
  // beta (finance): pass 100, no finding. s1 2 items 2/0 (wo 0 → low, PRG 1), 5 s / 5 s, 1000 / 1000 tokens;
  // s2 3 items 1/2 (wi 1/3, wo 2/3 → mid, PRG −1/3), 6 s / 3 s, 2000−500=1500 / 900; s3 4 items 4/4 (wo 1 → high,
  // PRG 0), 4 s / 4 s, 800 / 800. Own means: PRG (1 − 1/3 + 0)/3 = 2/9; EG over s2, s3 (s1's no-skill run passed
  // nothing): (−1, 0) → −0.5; CG (−600/900, 0) → −1/3; ECG (−5/6, 0) → −5/12.
  runFolder(
    'beta-bbbbbbbb',
    {
      contentHash: hash('b'),
      name: 'beta',
      category: 'finance',
      timings: { totalMs: 2000, stages: { scan: 500, model: 1500 } },
    },
    report({
      status: 'pass',
      score: 100,
      utility: {
        prg: 2 / 9,
        eg: -0.5,
        cg: -1 / 3,
        ecg: -5 / 12,
        deltaT: 0,
        deltaQ: 0,
        ceiling: false,
        scenarios: [
          scenario('s1', 2, [2, 0], [5000, 5000], [1000, 0, 1000, 0]),
          scenario('s2', 3, [1, 2], [6000, 3000], [2000, 500, 900, 0]),
          scenario('s3', 4, [4, 4], [4000, 4000], [800, 0, 800, 0]),
        ],
      },
      modelUsage: { judge: usage(200, 20, 3, 0.02) },
    }),
  );
  // gamma (no category): risky 40. Static E2 high ×2, SC2 high, R2 low; a runtime E1 medium. No utility.
  runFolder(
    'gamma-cccccccc',
    { contentHash: hash('c'), name: 'gamma', timings: { totalMs: 3000, stages: { scan: 3000 } } },
    report({
      status: 'risky',
      score: 40,
      findings: [
        finding('code.env-harvest', 'E2', 'high'),
        finding('code.env-harvest', 'E2', 'high'),
        finding('md.fetch-pipe-shell', 'SC2', 'high'),
        finding('code.request-no-timeout', 'R2', 'low'),
        finding('runtime.undeclared-destination', 'E1', 'medium'),
      ],
    }),
  );
  // delta (ops, hostile name): caution 90 (the last histogram bin's lower edge), SC1 low; utility ran but its
  // only scenario is invalid, so it has no utility results.
  runFolder(
    'delta-dddddddd',
    {
      contentHash: hash('d'),
      name: HOSTILE_NAME,
      category: 'ops',
      timings: { totalMs: 4000, stages: { scan: 4000 } },
    },
    report({
      status: 'caution',
      score: 90,
      findings: [finding('md.unpinned-install', 'SC1', 'low')],
      utility: {
        prg: null,
        eg: null,
        cg: null,
        ecg: null,
        deltaT: null,
        deltaQ: null,
        ceiling: false,
        scenarios: [scenario('s1', 4, [4, 0], [1000, 1000], [10, 0, 10, 0], false)],
      },
    }),
  );
  // epsilon (ops): risky 10 (the first bin's lower edge), P1 high.
  runFolder(
    'epsilon-eeeeeeee',
    {
      contentHash: hash('e'),
      name: 'epsilon',
      category: 'ops',
      // A stage named like an object's prototype is only a name.
      timings: { totalMs: 10_000, stages: JSON.parse('{"scan": 10000, "__proto__": 7}') },
    },
    report({ status: 'risky', score: 10, findings: [finding('md.instruction-override', 'P1', 'high')] }),
  );
  // Under another configuration: counted apart, in no figure.
  runFolder(
    'zeta-ffffffff',
    { contentHash: hash('f'), name: 'zeta', configKey: OTHER_KEY },
    report({ status: 'risky', score: 10 }),
  );
  // A marker whose report.json is cut short: a failure, not a skill.
  runFolder('broken-99999999', { contentHash: hash('9'), name: 'broken' }, '{"version": 2, "safety": ');
  // No marker: an audit still running (or stopped): not counted at all.
  mkdirSync(join(dir, 'runs', 'running-88888888'), { recursive: true });
  writeFileSync(
    join(dir, 'runs', 'running-88888888', 'report.json'),
    JSON.stringify(report({ status: 'pass', score: 100 })),
  );

  failure('f-source', { source: '/corpus/no-skill-here', code: 'NO_SKILL', message: 'no SKILL.md found' });
  // Superseded by alpha's finished run of the same content.
  failure('f-alpha', { source: '/corpus/alpha', contentHash: hash('a'), name: 'alpha' });
  // Recorded under another configuration.
  failure('f-other', { source: '/corpus/theta', configKey: OTHER_KEY });
  failure('f-eta', {
    source: '/corpus/eta',
    contentHash: hash('7'),
    name: 'eta',
    code: 'AUDIT_FAILED',
    message: 'stage timed out',
    attempts: 3,
  });
  writeFileSync(join(dir, 'failures', 'garbage.json'), 'not json');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FINANCE_UTILITY = {
  skillsWithUtility: 2,
  scenarios: 5,
};

function expectUtility(row: CategoryRow): void {
  // Valid scenarios: alpha s1, s2 and beta s1, s2, s3.
  // wi: (1 + 0.8 + 1 + 1/3 + 1) / 5 = 4.1333…/5; wo: (0.5 + 0.8 + 0 + 2/3 + 1) / 5 = 2.9666…/5.
  expect(row.passRate.withSkill).toBeCloseTo((1 + 0.8 + 1 + 1 / 3 + 1) / 5, 12);
  expect(row.passRate.noSkill).toBeCloseTo((0.5 + 0.8 + 0 + 2 / 3 + 1) / 5, 12);
  // PRG is the mean over the same scenarios (seed 000 Table 3), so it is wi − wo:
  // (0.5 + 0 + 1 − 1/3 + 0) / 5 = 0.2333…
  expect(row.prg).toBeCloseTo((0.5 + 0 + 1 - 1 / 3 + 0) / 5, 12);
  expect(row.prg).toBeCloseTo((row.passRate.withSkill ?? 0) - (row.passRate.noSkill ?? 0), 12);
  expect(row.eg).toBeCloseTo((-0.25 - 0.5) / 2, 12);
  expect(row.cg).toBeCloseTo((0.3 - 1 / 3) / 2, 12);
  expect(row.ecg).toBeCloseTo((0.025 - 5 / 12) / 2, 12);
  // Seconds: (10 + 30 + 5 + 6 + 4) / 5 = 11 and (20 + 10 + 5 + 3 + 4) / 5 = 8.4.
  expect(row.timeS).toEqual({ withSkill: 11, noSkill: 8.4 });
  // Effective input tokens: (2000 + 1000 + 1000 + 1500 + 800) / 5 = 1260; (5000 + 1000 + 1000 + 900 + 800) / 5 = 1740.
  expect(row.tokens).toEqual({ withSkill: 1260, noSkill: 1740 });
  expect(row).toMatchObject(FINANCE_UTILITY);
}

describe('summarizeBatch: every figure from a hand-built batch folder', () => {
  let s: BatchSummary;
  beforeAll(async () => {
    s = await summarizeBatch(dir);
  });

  it('counts skills under the batch configuration, failures that are still news, and the rest apart', () => {
    // Audited: alpha, beta, gamma, delta, epsilon. Failed: the source with no SKILL.md, eta, the broken report.
    expect(s.counts).toEqual({ total: 8, audited: 5, failed: 3, otherConfiguration: 1 });
    expect(s.statuses).toEqual({ pass: 1, caution: 2, risky: 2 });
    expect(s.configuration).toMatchObject({ key: KEY, stages: ['scan', 'quality', 'utility'] });
    expect(s.failures.map((f) => [f.source, f.code, f.attempts])).toEqual([
      ['/corpus/broken', 'REPORT_UNREADABLE', 1],
      ['/corpus/eta', 'AUDIT_FAILED', 3],
      ['/corpus/no-skill-here', 'NO_SKILL', 1],
    ]);
    expect(s.errors.map((e) => [e.code, e.count])).toEqual([
      ['AUDIT_FAILED', 1],
      ['NO_SKILL', 1],
      ['REPORT_UNREADABLE', 1],
    ]);
    expect(s.errors[0]?.examples).toEqual([{ source: '/corpus/eta', message: 'stage timed out' }]);
  });

  it('ratings: mean, median and bins of ten from 0, with 90 and 100 in the last', () => {
    // (85 + 100 + 40 + 90 + 10) / 5 = 65; sorted 10, 40, 85, 90, 100 → median 85.
    expect(s.scoreMean).toBe(65);
    expect(s.scoreMedian).toBe(85);
    expect(s.scoreHistogram.map((b) => [b.from, b.to, b.count])).toEqual([
      [0, 9, 0],
      [10, 19, 1],
      [20, 29, 0],
      [30, 39, 0],
      [40, 49, 1],
      [50, 59, 0],
      [60, 69, 0],
      [70, 79, 0],
      [80, 89, 1],
      [90, 100, 2],
    ]);
  });

  it('Table 3: categories by size then name, static unsuppressed findings only, means over what was measured', () => {
    expect(s.categories.map((c) => [c.category, c.skills])).toEqual([
      ['finance', 2],
      ['ops', 2],
      ['uncategorised', 1],
    ]);
    const [finance, ops, none] = s.categories as [CategoryRow, CategoryRow, CategoryRow];
    expect(finance.statuses).toEqual({ pass: 1, caution: 1, risky: 0 });
    expect(finance.safetyScore).toBe(92.5);
    // alpha: E2 high + P4 medium; its suppressed R2 and runtime PE3 do not count.
    expect(finance.findings).toEqual({ high: 1, medium: 1, low: 0 });
    expectUtility(finance);
    // ops: delta's only scenario is invalid, epsilon ran no utility: every utility mean is null, never 0.
    expect(ops).toMatchObject({
      statuses: { pass: 0, caution: 1, risky: 1 },
      safetyScore: 50,
      findings: { high: 1, medium: 0, low: 1 },
      skillsWithUtility: 0,
      scenarios: 0,
      passRate: { withSkill: null, noSkill: null },
      prg: null,
      eg: null,
      cg: null,
      ecg: null,
      timeS: { withSkill: null, noSkill: null },
      tokens: { withSkill: null, noSkill: null },
    });
    // gamma: E2 ×2 + SC2 high, R2 low; the runtime E1 medium is not static.
    expect(none).toMatchObject({ safetyScore: 40, findings: { high: 3, medium: 0, low: 1 } });
    // Overall: findings 1+1+3 high, 1 medium, 1+1 low; utility as finance (the only skills with results).
    expect(s.overall).toMatchObject({
      category: 'overall',
      skills: 5,
      statuses: { pass: 1, caution: 2, risky: 2 },
      safetyScore: 65,
      findings: { high: 5, medium: 1, low: 2 },
    });
    expectUtility(s.overall);
  });

  it('Table A2: scenarios by no-skill pass rate, wo = 0.5 and 0.8 in mid, zero and negative shares, medians', () => {
    // (wo, PRG): alpha (0.5, 0.5) mid, (0.8, 0) mid; beta (0, 1) low, (2/3, −1/3) mid, (1, 0) high.
    const [low, mid, high, all] = s.strata;
    expect(low).toEqual({ stratum: 'low', n: 1, rate: 0.2, meanPrg: 1, medianPrg: 1, zero: 0, negative: 0 });
    expect(mid).toMatchObject({
      stratum: 'mid',
      n: 3,
      rate: 0.6,
      medianPrg: 0,
      zero: 1 / 3,
      negative: 1 / 3,
    });
    expect(mid?.meanPrg).toBeCloseTo((0.5 + 0 - 1 / 3) / 3, 12);
    expect(high).toEqual({
      stratum: 'high',
      n: 1,
      rate: 0.2,
      meanPrg: 0,
      medianPrg: 0,
      zero: 1,
      negative: 0,
    });
    // All: sorted −1/3, 0, 0, 0.5, 1 → median 0; two zeros of five, one negative.
    expect(all).toMatchObject({ stratum: 'all', n: 5, rate: 1, medianPrg: 0, zero: 0.4, negative: 0.2 });
    expect(all?.meanPrg).toBeCloseTo((0.5 + 0 + 1 - 1 / 3 + 0) / 5, 12);
    expect(s.strataByCategory[0]).toMatchObject({ category: 'finance', low: 1, high: 0 });
    expect(s.strataByCategory[0]?.mid).toBeCloseTo(1 / 18, 12);
    expect(s.strataByCategory[1]).toEqual({ category: 'ops', low: null, mid: null, high: null, all: null });
  });

  it('patterns and rules count unsuppressed static and runtime findings; the skill rows say which', () => {
    const prevalence = Object.fromEntries(
      s.patterns.filter((p) => p.any > 0).map((p) => [p.pattern, p.skills]),
    );
    expect(s.patterns).toHaveLength(21);
    expect(s.patterns[0]?.name).toBe('Instruction Override');
    expect(prevalence).toEqual({
      P1: { high: 1, medium: 0, low: 0 },
      P4: { high: 0, medium: 1, low: 0 },
      E1: { high: 0, medium: 1, low: 0 },
      E2: { high: 2, medium: 0, low: 0 },
      PE3: { high: 1, medium: 0, low: 0 },
      SC1: { high: 0, medium: 0, low: 1 },
      SC2: { high: 1, medium: 0, low: 0 },
      R2: { high: 0, medium: 0, low: 1 },
    });
    expect(s.rules.map((r) => [r.rule, r.findings, r.skills])).toEqual([
      ['code.env-harvest', 3, 2],
      ['code.request-no-timeout', 1, 1],
      ['md.fetch-pipe-shell', 1, 1],
      ['md.instruction-override', 1, 1],
      ['md.persistence-hide', 1, 1],
      ['md.unpinned-install', 1, 1],
      ['runtime.credential-read', 1, 1],
      ['runtime.undeclared-destination', 1, 1],
    ]);
    const alpha = s.skills.find((k) => k.name === 'alpha');
    expect(alpha).toMatchObject({
      id: hash('a'),
      category: 'finance',
      status: 'caution',
      score: 85,
      findings: { high: 1, medium: 1, low: 0 },
      patterns: ['P4', 'E2', 'PE3'],
      prg: 0.25,
      ecg: 0.025,
      auditMs: 1000,
      runDir: join('runs', 'alpha-aaaaaaaa'),
    });
    expect(s.skills.map((k) => k.name)).toEqual(['alpha', 'beta', HOSTILE_NAME, 'epsilon', 'gamma']);
  });

  it('time from the markers, cost from the reports’ modelUsage', () => {
    // 1000 + 2000 + 3000 + 4000 + 10000 = 20000; p95 = 4000 + 0.8 × (10000 − 4000) = 8800.
    expect(s.time).toEqual({
      totalMs: 20_000,
      meanMs: 4000,
      p50Ms: 3000,
      p95Ms: 8800,
      byStage: JSON.parse('{"scan": 17900, "quality": 600, "model": 1500, "__proto__": 7}'),
    });
    expect(Object.keys(s.time.byStage)).toContain('__proto__');
    expect(s.cost.usd).toBeCloseTo(0.13, 12);
    expect(s.cost).toMatchObject({ inputTokens: 1300, outputTokens: 80, calls: 10 });
  });

  it('a --categories mapping (by name, source or content hash) re-cuts the tables', async () => {
    const recut = await summarizeBatch(dir, {
      categories: new Map([
        ['gamma', 'security'],
        ['/corpus/epsilon', 'security'],
        [hash('d'), 'finance'],
      ]),
    });
    expect(recut.categories.map((c) => [c.category, c.skills])).toEqual([
      ['finance', 3],
      ['security', 2],
    ]);
    // finance now alpha, beta, delta: (85 + 100 + 90) / 3; security gamma, epsilon: (40 + 10) / 2.
    expect(recut.categories[0]?.safetyScore).toBeCloseTo(275 / 3, 12);
    expect(recut.categories[1]?.safetyScore).toBe(25);
    expect(recut.skills.find((k) => k.name === 'gamma')?.category).toBe('security');
  });

  it('summary.json matches the published schema; summary.md lays the tables out and escapes skill text', async () => {
    const written = await writeSummary(dir);
    const json = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(summarySchemaErrors(json)).toEqual([]);
    expect(json).toEqual(JSON.parse(JSON.stringify(written)));

    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(md).toContain(
      '| finance | 2 | 5 | 0.827 | 0.593 | 0.233 | 11 | 8 | 1.3K | 1.7K | −0.375 | −0.017 | −0.196 | 92.5 | 1 | 1 | 0 |',
    );
    expect(md).toContain('| ops | 2 | 0 | — | — | — | — | — | — | — | — | — | — | 50.0 | 1 | 0 | 1 |');
    expect(md).toContain('| **Overall** | 5 | 5 | 0.827 | 0.593 | 0.233 |');
    expect(md).toContain('| Low (wo < 0.5) | 1 | 20.0% | 1.000 | 1.000 | 0.0 | 0.0 |');
    expect(md).toContain('| Mid (0.5 ≤ wo ≤ 0.8) | 3 | 60.0% | 0.056 | 0.000 | 33.3 | 33.3 |');
    expect(md).toContain('| All (unstratified) | 5 | 100.0% | 0.233 | 0.000 | 40.0 | 20.0 |');
    // The hostile name: no tag, link, mention or extra cell comes out of it.
    expect(md).not.toContain('<img');
    expect(md).not.toContain('](javascript');
    expect(md).not.toContain('@everyone');
    const hostileRow = md.split('\n').find((l) => l.includes('delta') && l.includes('report.html')) ?? '';
    expect(hostileRow.replace(/\\\|/g, '').split('|')).toHaveLength(12);
  });
});

describe('summarizeBatch: edges', () => {
  let empty: string;
  beforeAll(() => {
    empty = mkdtempSync(join(tmpdir(), 'skillaudit-summary-empty-'));
  });
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it('a folder with nothing finished: zero counts and null means, never 0', async () => {
    const s = await summarizeBatch(empty);
    expect(s.configuration).toBeNull();
    expect(s.counts).toEqual({ total: 0, audited: 0, failed: 0, otherConfiguration: 0 });
    expect([
      s.scoreMean,
      s.scoreMedian,
      s.overall.safetyScore,
      s.overall.prg,
      s.time.meanMs,
      s.time.p95Ms,
    ]).toEqual([null, null, null, null, null, null]);
    expect(s.strata.map((r) => [r.stratum, r.n, r.rate, r.meanPrg, r.medianPrg, r.zero, r.negative])).toEqual(
      [
        ['low', 0, null, null, null, null, null],
        ['mid', 0, null, null, null, null, null],
        ['high', 0, null, null, null, null, null],
        ['all', 0, null, null, null, null, null],
      ],
    );
    expect(s.scoreHistogram.every((b) => b.count === 0)).toBe(true);
    expect(s.categories).toEqual([]);
  });

  it('without batch-config.json every finished run folder counts, whatever its configuration', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'skillaudit-summary-noconfig-'));
    try {
      runFolder(
        'one-11111111',
        { contentHash: hash('1'), name: 'one' },
        report({ status: 'pass', score: 100 }),
        copy,
      );
      runFolder(
        'two-22222222',
        { contentHash: hash('2'), name: 'two', configKey: OTHER_KEY },
        report({ status: 'risky', score: 30 }),
        copy,
      );
      const s = await summarizeBatch(copy);
      expect(s.configuration).toBeNull();
      expect(s.counts).toEqual({ total: 2, audited: 2, failed: 0, otherConfiguration: 0 });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('a damaged marker is a failure that says which run folder, not a skill and not a crash', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'skillaudit-summary-marker-'));
    try {
      runFolder(
        'odd-33333333',
        { contentHash: hash('3'), name: { not: 'a name' } as unknown as string },
        report({ status: 'pass', score: 100 }),
        copy,
      );
      const s = await writeSummary(copy);
      expect(s.counts).toEqual({ total: 1, audited: 0, failed: 1, otherConfiguration: 0 });
      expect(s.failures).toEqual([
        expect.objectContaining({ source: join('runs', 'odd-33333333'), code: 'MARKER_INVALID' }),
      ]);
      expect(readFileSync(join(copy, 'summary.md'), 'utf8')).toContain('`MARKER_INVALID`');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('the schema refuses what the contract forbids', async () => {
    const s = await summarizeBatch(empty);
    expect(summarySchemaErrors(s)).toEqual([]);
    expect(summarySchemaErrors({ ...s, scoreMean: 101 })).not.toEqual([]);
    expect(summarySchemaErrors({ ...s, strata: s.strata.slice(0, 3) })).not.toEqual([]);
    expect(summarySchemaErrors({ ...s, counts: { ...s.counts, audited: -1 } })).not.toEqual([]);
  });

  it('a missing folder or an unreadable batch-config.json is a clear error', async () => {
    await expect(summarizeBatch(join(empty, 'nope'))).rejects.toThrow(/no such batch folder/);
    writeFileSync(join(empty, 'batch-config.json'), '{ not json');
    await expect(summarizeBatch(empty)).rejects.toThrow(/batch-config\.json/);
    rmSync(join(empty, 'batch-config.json'));
  });
});
