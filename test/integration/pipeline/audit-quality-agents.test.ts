// Cross-model robustness from two agent configurations of one audit: the built-in agent and real Claude Code
// (installed on first use) run the same scenarios against the fake model server; Claude Code misses one of them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../../../src/pipeline/audit.js';
import { validateReport } from '../../../src/report/schema.js';
import {
  LOADS_AND_WRITES,
  SKILL,
  scripts,
  WRITE_TOTAL,
  writeSkill,
} from '../../support/fake-model/audit-script.js';
import {
  type FakeModelServer,
  type FakeScript,
  startFakeModelServer,
} from '../../support/fake-model-server.js';
import { modelAuditOptions, requireHarness } from '../../support/model-audit.js';

let server: FakeModelServer;
let dir: string;

beforeAll(async () => {
  await requireHarness('claude-code');
  server = await startFakeModelServer({ usage: { input: 1000, cached: 0, output: 50 } });
  dir = mkdtempSync(join(tmpdir(), 'skillaudit-quality-agents-'));
}, 600_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('audit --agents builtin,claude-code: cross-model robustness', () => {
  it('is the mean over scenarios of the worst configuration’s success, from the judged with-skill trials', async () => {
    const claude = (batch: number, writes: boolean): FakeScript => ({
      name: `claude-with-${batch}`,
      match: (r) =>
        r.raw.includes(SKILL) && r.toolNames.includes('Bash') && r.raw.includes(`Finance batch ${batch}`),
      turns: [
        { toolCalls: [{ name: 'Skill', input: { skill: SKILL } }] },
        ...(writes
          ? [
              {
                toolCalls: [
                  { name: 'Bash', input: { command: WRITE_TOTAL, description: 'write the total' } },
                ],
              },
            ]
          : []),
        { text: writes ? 'Wrote totals.txt.' : 'Looked at the invoices.' },
      ],
    });
    const base = scripts(LOADS_AND_WRITES, [{ text: 'I looked at the invoices but wrote nothing.' }], 2);
    server.setScripts([
      ...base.filter((s) => !s.name.endsWith('-skill')),
      claude(1, true),
      claude(2, false),
      ...base.filter((s) => s.name.endsWith('-skill')),
    ]);
    const skillDir = writeSkill(join(dir, 'two'));
    const [outcome] = await runAudit(
      skillDir,
      modelAuditOptions(
        join(dir, 'runs'),
        { baseUrl: server.url, dir },
        { agents: ['builtin', 'claude-code'], scenarios: 2, concurrency: 4 },
      ),
    );
    const report = outcome?.report;
    if (!report || !outcome.runDir) throw new Error(`audit failed: ${JSON.stringify(outcome?.error)}`);
    expect(validateReport(report)).toEqual([]);

    // s1: both pass 2/2 → worst 1; s2: builtin 2/2, claude-code 0/2 → worst 0; mean 0.5.
    const d = report.quality?.dimensions.find((x) => x.id === 'cross-model-robustness');
    expect(d).toMatchObject({ status: 'scored', score: 0.5 });
    const stored = JSON.parse(readFileSync(join(outcome.runDir, 'quality', 'dimensions.json'), 'utf8'))
      .dimensions as { id: string; evidence: Record<string, unknown> }[];
    const evidence = stored.find((x) => x.id === 'cross-model-robustness')?.evidence;
    const model = 'anthropic/claude-sonnet-4-5';
    expect(evidence?.scenarios).toEqual([
      {
        scenario: 's1',
        byModel: { [`builtin (${model})`]: 1, [`claude-code (${model})`]: 1 },
        worst: 1,
        best: 1,
      },
      {
        scenario: 's2',
        byModel: { [`builtin (${model})`]: 1, [`claude-code (${model})`]: 0 },
        worst: 0,
        best: 1,
      },
    ]);
    expect([...((evidence?.artifacts ?? []) as string[])].sort()).toEqual(
      ['builtin', 'claude-code']
        .flatMap((a) => [1, 2].map((n) => `trials/${SKILL}-s${n}__with_skill__${a}/judge.json`))
        .sort(),
    );
    // Efficiency and the behaviour-chain rubric cover the with-skill runs of both configurations.
    const efficiency = stored.find((x) => x.id === 'efficiency')?.evidence;
    expect(((efficiency?.artifacts ?? []) as string[]).length).toBe(4);
  }, 300_000);
});
