// Which model does what, through the command line against the fake server: an agent given a model whose wire
// protocol it cannot speak is refused before anything runs; `--judge-model` sends every judge call, and only
// those, to the judge model, the report says which model judged, and a re-run with another judge re-judges.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../../src/report/model.js';
import { validateReport } from '../../../src/report/schema.js';
import { runCli } from '../../support/cli-run.js';
import { LOADS_AND_WRITES, SKILL, scripts, writeSkill } from '../../support/fake-model/audit-script.js';
import {
  type FakeModelServer,
  type LoggedRequest,
  startFakeModelServer,
} from '../../support/fake-model-server.js';

let server: FakeModelServer;
let dir: string;
let skillDir: string;
const saved = { openai: process.env.OPENAI_API_KEY, anthropic: process.env.ANTHROPIC_API_KEY };

beforeAll(async () => {
  server = await startFakeModelServer({ usage: { input: 1000, cached: 0, output: 50 } });
  dir = mkdtempSync(join(tmpdir(), 'skillaudit-model-choice-'));
  skillDir = writeSkill(dir);
  process.env.OPENAI_API_KEY = 'test-key';
  process.env.ANTHROPIC_API_KEY = 'test-key';
});

afterAll(async () => {
  for (const [name, value] of [
    ['OPENAI_API_KEY', saved.openai],
    ['ANTHROPIC_API_KEY', saved.anthropic],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A judge call of any kind: SkillAudit's judges introduce themselves as one in the system prompt. */
const isJudgeCall = (r: LoggedRequest) =>
  /You are SkillAudit's [\w -]*judge/.test(JSON.stringify(r.body ?? ''));
const base = (out: string) => ['audit', skillDir, '--no-detonate', '--no-cache', '--out', out];

describe('agent and model protocol mismatch', () => {
  it.each([
    ['claude-code', 'openai/gpt-5.4', 'agent claude-code cannot use openai/gpt-5.4', 'anthropic/…'],
    [
      'codex',
      'anthropic/claude-sonnet-4-5',
      'agent codex cannot use anthropic/claude-sonnet-4-5',
      'openai/…',
    ],
  ])(
    '--agent %s with %s: exit 2 before any model request or sandbox run',
    async (agent, model, says, works) => {
      server.reset();
      const out = join(dir, `mismatch-${agent}`);
      const { code, stderr } = await runCli([
        ...base(out),
        '--model',
        model,
        '--base-url',
        server.baseUrl,
        '--agents',
        `builtin,${agent}`,
      ]);
      expect(code).toBe(2);
      expect(stderr).toContain(says);
      expect(stderr).toContain(`models that work with ${agent}: ${works}`);
      expect(server.requests).toEqual([]);
      expect(existsSync(out)).toBe(false);
    },
  );
});

describe('audit --judge-model', () => {
  const agentModel = 'openai/agent-model-a';
  const judgeModel = 'openai/judge-model-b';

  it('judge calls go to the judge model only; the report records it; another judge re-judges on resume', async () => {
    server.reset();
    server.setScripts(scripts(LOADS_AND_WRITES, [{ text: 'I looked but wrote nothing.' }], 1));
    const out = join(dir, 'judged');
    const args = [...base(out), '--model', agentModel, '--base-url', server.baseUrl, '--scenarios', '1'];
    const first = await runCli([...args, '--judge-model', judgeModel, '--format', 'json']);
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as Report;
    expect(validateReport(report)).toEqual([]);
    expect(report.utility?.prg).toBe(1);
    expect(report.configuration.model).toMatchObject({ model: agentModel });
    expect(report.configuration.judgeModel).toMatchObject({ model: judgeModel, apiKeySet: true });

    // Every judge (checklist, probes, rubric dimensions) on the judge model; schemes and agents on --model.
    expect(server.requests.filter((r) => r.script?.startsWith('judge-'))).toHaveLength(2);
    const judges = server.requests.filter(isJudgeCall);
    const others = server.requests.filter((r) => r.protocol !== null && !isJudgeCall(r));
    expect(
      others.filter((r) => r.script === 'schemes' || r.script?.endsWith('-skill')).length,
    ).toBeGreaterThanOrEqual(4);
    expect(new Set(judges.map((r) => r.body.model))).toEqual(new Set(['judge-model-b']));
    expect(new Set(others.map((r) => r.body.model))).toEqual(new Set(['agent-model-a']));
    const [runName] = readdirSync(out);
    const judgeFile = join(
      out,
      runName as string,
      'trials',
      `${SKILL}-s1__with_skill__builtin`,
      'judge.json',
    );
    expect(JSON.parse(readFileSync(judgeFile, 'utf8')).judgeModel).toBe(judgeModel);

    // The same audit without --judge-model: the runs are reused, the judgements are not (another judge made them).
    server.reset();
    const again = await runCli([...args, '--format', 'json']);
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as Report).configuration.judgeModel).toMatchObject({
      model: agentModel,
    });
    expect(server.requests.filter((r) => r.script?.startsWith('judge-'))).toHaveLength(2);
    expect(server.requests.filter((r) => !isJudgeCall(r) && r.protocol !== null)).toEqual([]);
    expect(new Set(server.requests.map((r) => r.body.model))).toEqual(new Set(['agent-model-a']));
    expect(JSON.parse(readFileSync(judgeFile, 'utf8')).judgeModel).toBe(agentModel);
  }, 120_000);
});
