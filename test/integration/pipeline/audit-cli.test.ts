// `skillaudit audit --model … --agent …` through the command-line program (in process), against the fake server.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../../src/report/model.js';
import { validateReport } from '../../../src/report/schema.js';
import { withoutProgress } from '../../support/built-cli.js';
import { runCli } from '../../support/cli-run.js';
import { type FakeModelServer, mentions, startFakeModelServer } from '../../support/fake-model-server.js';

const SKILL = 'csv-house-style-qz';
let server: FakeModelServer;
let dir: string;
let skillDir: string;
const savedKey = process.env.ANTHROPIC_API_KEY;

const modelArgs = () => ['--model', 'anthropic/claude-sonnet-4-5', '--base-url', server.url, '--no-cache'];

beforeAll(async () => {
  server = await startFakeModelServer({ usage: { input: 500, cached: 100, output: 40 } });
  dir = mkdtempSync(join(tmpdir(), 'skillaudit-audit-cli-'));
  skillDir = join(dir, SKILL);
  mkdirSync(skillDir);
  writeFileSync(
    join(skillDir, 'SKILL.md'),
    `---\nname: ${SKILL}\ndescription: Column naming rules for exported tables.\n---\n# Columns\n\nHeaders are snake_case.\n`,
  );
  process.env.ANTHROPIC_API_KEY = 'test-key';
});

afterAll(async () => {
  if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = savedKey;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('skillaudit audit --model', () => {
  it('writes a schema-valid JSON report with the utility section and one row per agent', async () => {
    const verdicts = (passed: boolean) => ({
      items: [{ id: 'c1', passed, evidence: passed ? 'order_id,total_amount' : '', reason: 'scripted' }],
    });
    server.setScripts([
      {
        name: 'schemes',
        match: (r) => r.raw.includes('scenarios for this skill'),
        turns: [
          {
            json: {
              capabilityAnalysis: 'naming',
              scenarios: [
                {
                  title: 'Export',
                  instruction: 'Write orders.csv with a header row for order id and total amount.',
                  capabilityAnalysis: 'naming',
                  checklist: ['the header follows the team convention'],
                  rubric: 'exact header',
                  expectedOutcome: 'order_id,total_amount',
                  materials: [],
                  ruleChecks: [{ kind: 'file_exists', path: 'orders.csv', value: '', command: '' }],
                },
              ],
            },
          },
        ],
      },
      {
        name: 'judge-pass',
        match: (r) =>
          r.raw.includes('Checklist (one verdict per id)') && r.raw.includes('order_id,total_amount'),
        turns: [{ json: verdicts(true) }],
      },
      {
        name: 'judge-fail',
        match: (r) => r.raw.includes('Checklist (one verdict per id)'),
        turns: [{ json: verdicts(false) }],
      },
      {
        name: 'with-skill',
        match: mentions(SKILL),
        turns: [
          { toolCalls: [{ name: 'skill', input: { name: SKILL } }] },
          {
            toolCalls: [
              { name: 'write_file', input: { path: 'orders.csv', content: 'order_id,total_amount\n' } },
            ],
          },
          { text: 'done' },
        ],
      },
      {
        name: 'no-skill',
        turns: [
          { toolCalls: [{ name: 'write_file', input: { path: 'orders.csv', content: 'Order ID,Total\n' } }] },
          { text: 'done' },
        ],
      },
    ]);
    const out = join(dir, 'runs');
    const { code, stdout, stderr } = await runCli([
      'audit',
      skillDir,
      ...modelArgs(),
      '--agents',
      'builtin',
      '--scenarios',
      '1',
      '--concurrency',
      '2',
      '--no-detonate',
      '--format',
      'json',
      '--out',
      out,
    ]);
    // Not a TTY: a plain progress line per stage, nothing else.
    expect(stderr).toMatch(/^skillaudit: .*: scan \(\d+ s\)$/m);
    expect(withoutProgress(stderr)).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Report;
    expect(validateReport(report)).toEqual([]);
    expect(report.utility?.prg).toBe(1);
    expect(report.utility?.cg).toBeNull(); // the no-skill run passed nothing: no efficiency pair
    expect(report.configuration).toMatchObject({
      agents: ['builtin'],
      scenarios: 1,
      model: { model: 'anthropic/claude-sonnet-4-5', apiKeySet: true },
      utilityByAgent: [{ agent: 'builtin', harness: null, prg: 1 }],
    });
    expect(JSON.stringify(report)).not.toContain('test-key');
    expect(report.notRun.map((n) => n.stage)).toEqual(['detonate']);
  }, 120_000);

  it('rejects an unknown agent in --agents as a usage error before any model call', async () => {
    server.reset();
    const { code, stderr } = await runCli(['audit', skillDir, ...modelArgs(), '--agents', 'builtin,hal9000']);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown agent "hal9000"');
    expect(server.requests).toEqual([]);
  });

  it('without a model the audit is keyless and lists the model stages as not run', async () => {
    server.reset();
    const saved = process.env.SKILLAUDIT_MODEL;
    delete process.env.SKILLAUDIT_MODEL;
    const { code, stdout } = await runCli([
      'audit',
      skillDir,
      '--no-detonate',
      '--format',
      'json',
      '--out',
      join(dir, 'keyless'),
    ]);
    if (saved !== undefined) process.env.SKILLAUDIT_MODEL = saved;
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Report;
    expect(report.utility).toBeNull();
    expect(report.notRun.map((n) => n.stage)).toEqual(['detonate', 'schemes', 'trials', 'judge', 'probes']);
    expect(server.requests).toEqual([]);
  }, 60_000);
});
