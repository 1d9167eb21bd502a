import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BatchConfig, configKey } from '../../../src/batch/config.js';
import type { BatchLine } from '../../../src/batch/records.js';
import { prepareBatchDir } from '../../../src/batch/run-batch.js';
import { auditUnit } from '../../../src/batch/run-unit.js';
import { writeSummary } from '../../../src/batch/summarize.js';
import type { BatchSummary } from '../../../src/batch/summary-model.js';
import type { Report } from '../../../src/report/model.js';
import { summarySchemaErrors } from '../../support/batch/summary-schema.js';
import {
  isJudge,
  isSchemes,
  LOADS_AND_WRITES,
  RUBRIC_SCRIPTS,
  SKILL,
  scenario,
  TOTAL,
  WRITE_TOTAL,
} from '../../support/fake-model/audit-script.js';
import {
  type FakeModelServer,
  type FakeTurn,
  mentions,
  startFakeModelServer,
} from '../../support/fake-model-server.js';

// The utility figures of the summary against real model-backed audits: the batch's unit runner audits one
// source holding two skills (categories finance and ops) with the utility stage, the builtin agent in the real
// sandbox and the scripted fake model server over HTTP. The scripted no-skill agent fails scenario 1, half-does
// scenario 2 and does scenario 3, so each skill has one scenario in each stratum of Table A2. Table 3's pass
// rates, PRG and the strata are recomputed here from the raw passed/total numbers in the run folders' reports.

const PARTIAL = 'grand total: 40.00';
let server: FakeModelServer;
let work: string;
let out: string;
let lines: BatchLine[];
let summary: BatchSummary;
const savedKey = process.env.ANTHROPIC_API_KEY;

const wrote = (command: string): FakeTurn[] => [
  { toolCalls: [{ name: 'shell', input: { command } }] },
  { text: 'Wrote totals.txt.' },
];
const verdicts = (c1: boolean, c2: boolean) => ({
  items: [
    { id: 'c1', passed: c1, evidence: c1 ? 'grand total' : '', reason: 'scripted' },
    { id: 'c2', passed: c2, evidence: c2 ? TOTAL : '', reason: 'scripted' },
  ],
});

function writeLedgerSkill(root: string, category: string, note: string): void {
  const folder = join(root, category, SKILL);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'SKILL.md'),
    `---\nname: ${SKILL}\ndescription: House style for invoice summaries.\ncategory: ${category}\n---\n# House style\n\nThe summary line reads "grand total: <sum>" with two decimals, alone on its line.\n${note}\n`,
  );
}

beforeAll(async () => {
  server = await startFakeModelServer({ usage: { input: 1000, cached: 200, output: 50 } });
  server.setScripts([
    ...RUBRIC_SCRIPTS,
    {
      name: 'schemes',
      match: isSchemes,
      turns: [{ json: { capabilityAnalysis: 'summary line format', scenarios: [1, 2, 3].map(scenario) } }],
    },
    // The blind judge sees the trial's files: the full line passes both items, the wrong sum only the first.
    {
      name: 'judge-pass',
      match: (r) => isJudge(r) && r.raw.includes(TOTAL),
      turns: [{ json: verdicts(true, true) }],
    },
    {
      name: 'judge-partial',
      match: (r) => isJudge(r) && r.raw.includes(PARTIAL),
      turns: [{ json: verdicts(true, false) }],
    },
    { name: 'judge-fail', match: isJudge, turns: [{ json: verdicts(false, false) }] },
    { name: 'with-skill', match: mentions(SKILL), turns: LOADS_AND_WRITES },
    { name: 'no-skill-1', match: mentions('Finance batch 1:'), turns: [{ text: 'I wrote nothing.' }] },
    {
      name: 'no-skill-2',
      match: mentions('Finance batch 2:'),
      turns: wrote(`printf '${PARTIAL}\\n' > totals.txt`),
    },
    { name: 'no-skill-3', turns: wrote(WRITE_TOTAL) },
  ]);
  work = mkdtempSync(join(tmpdir(), 'skillaudit-batch-utility-'));
  out = join(work, 'out');
  const source = join(work, 'corpus');
  writeLedgerSkill(source, 'finance', 'Amounts are in euros.');
  writeLedgerSkill(source, 'ops', 'Amounts are in dollars.');
  // auditOptionsFor resolves the model settings from the flags and this process's environment.
  process.env.ANTHROPIC_API_KEY = 'test-key';
  const config: BatchConfig = {
    stages: ['scan', 'quality', 'utility'],
    limits: {},
    model: {
      flags: { model: 'anthropic/claude-sonnet-4-5', baseUrl: server.url, cache: false },
      agents: ['builtin'],
      scenarios: 3,
      concurrency: 2,
      alpha: 0.5,
    },
  };
  await prepareBatchDir(out, config, [source]);
  const key = configKey(config);
  // One source, two skills: they share the model clients, as an archive or repository of skills does.
  lines = await auditUnit(source, { dir: out, config, configKey: key, retryFailed: false });
  summary = await writeSummary(out);
}, 300_000);

afterAll(async () => {
  if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = savedKey;
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

interface Pair {
  category: string;
  wi: number;
  wo: number;
  prg: number;
}

function scenarioPairs(): Pair[] {
  const pairs: Pair[] = [];
  for (const folder of readdirSync(join(out, 'runs'))) {
    const report = JSON.parse(readFileSync(join(out, 'runs', folder, 'report.json'), 'utf8')) as Report;
    const marker = JSON.parse(readFileSync(join(out, 'runs', folder, 'batch.json'), 'utf8'));
    for (const s of report.utility?.scenarios ?? []) {
      if (!s.valid) continue;
      const n = s.withSkill.total;
      pairs.push({
        category: marker.category,
        wi: s.withSkill.passed / n,
        wo: s.noSkill.passed / n,
        prg: (s.withSkill.passed - s.noSkill.passed) / n,
      });
    }
  }
  // Run folders are named by content hash: order by category, each skill's scenarios in report order.
  return pairs.sort((a, b) => a.category.localeCompare(b.category));
}

const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('summary of model-backed audits (builtin agent, fake model over HTTP)', () => {
  it('audits both skills of the source with utility results', () => {
    expect(lines.map((l) => [l.category, l.status]).sort()).toEqual([
      ['finance', 'done'],
      ['ops', 'done'],
    ]);
    expect(summary.counts).toMatchObject({ audited: 2, failed: 0 });
    expect(summarySchemaErrors(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')))).toEqual([]);
    // Scripted: no-skill passes 0, 1 and 2 of 2 items; with the skill 2 of 2 each time.
    const pairs = scenarioPairs();
    expect(pairs.map((p) => [p.category, p.wi, p.wo, p.prg])).toEqual([
      ['finance', 1, 0, 1],
      ['finance', 1, 0.5, 0.5],
      ['finance', 1, 1, 0],
      ['ops', 1, 0, 1],
      ['ops', 1, 0.5, 0.5],
      ['ops', 1, 1, 0],
    ]);
  });

  it('Table 3 pass rates and PRG equal the values recomputed from the reports’ scenarios', () => {
    const pairs = scenarioPairs();
    for (const row of summary.categories) {
      const mine = pairs.filter((p) => p.category === row.category);
      expect(row.scenarios).toBe(mine.length);
      expect(row.skillsWithUtility).toBe(1);
      expect(row.passRate.withSkill).toBeCloseTo(avg(mine.map((p) => p.wi)), 12);
      expect(row.passRate.noSkill).toBeCloseTo(avg(mine.map((p) => p.wo)), 12);
      // One skill per category: the mean of its skills' PRG is its own mean over its scenarios.
      expect(row.prg).toBeCloseTo(avg(mine.map((p) => p.prg)), 12);
    }
    expect(summary.overall.passRate.noSkill).toBeCloseTo(avg(pairs.map((p) => p.wo)), 12);
    expect(summary.overall.prg).toBeCloseTo(0.5, 12);
    // Time and tokens were measured: 1000 input − 200 cached per call, three calls with the skill.
    expect(summary.overall.timeS.withSkill).toBeGreaterThan(0);
    expect(summary.overall.tokens.withSkill).toBe(2400);
  });

  it('Table A2 strata equal the recomputation: one scenario per skill in each of low, mid (wo = 0.5) and high', () => {
    const pairs = scenarioPairs();
    const low = pairs.filter((p) => p.wo < 0.5);
    const mid = pairs.filter((p) => p.wo >= 0.5 && p.wo <= 0.8);
    const high = pairs.filter((p) => p.wo > 0.8);
    const [sLow, sMid, sHigh, sAll] = summary.strata;
    for (const [row, group] of [
      [sLow, low],
      [sMid, mid],
      [sHigh, high],
      [sAll, pairs],
    ] as const) {
      expect(row?.n).toBe(group.length);
      expect(row?.rate).toBeCloseTo(group.length / pairs.length, 12);
      expect(row?.meanPrg).toBeCloseTo(avg(group.map((p) => p.prg)), 12);
      expect(row?.zero).toBeCloseTo(group.filter((p) => Math.abs(p.prg) < 0.001).length / group.length, 12);
    }
    expect([sLow?.n, sMid?.n, sHigh?.n, sAll?.n]).toEqual([2, 2, 2, 6]);
    expect(sAll?.medianPrg).toBe(0.5);
  });

  it('the cost is what the run spent: each report counts only its own skill’s model use', () => {
    // Every model request the server answered carried 1000 input and 50 output tokens (a trial's turns are one
    // "call" of its stage, so tokens, not calls, are what to compare with the wire).
    const modelRequests = server.requests.filter((r) => r.script !== null).length;
    expect(summary.cost.inputTokens).toBe(1000 * modelRequests);
    expect(summary.cost.outputTokens).toBe(50 * modelRequests);
    expect(summary.cost.usd).toBeGreaterThan(0);
    // The two skills did the same work: the second report does not carry the first one's spending too.
    const used = readdirSync(join(out, 'runs')).map((f) => {
      const report = JSON.parse(readFileSync(join(out, 'runs', f, 'report.json'), 'utf8')) as Report;
      const stages = report.configuration.modelUsage as Record<string, { input: number; calls: number }>;
      return Object.values(stages).reduce((n, u) => n + u.input, 0);
    });
    expect(used).toEqual([500 * modelRequests, 500 * modelRequests]);
  });
});
