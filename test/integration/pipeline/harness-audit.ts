// One model-backed audit through runAudit with a real harness CLI (Codex, OpenCode) against the fake model
// server: one scenario the scripted model completes only when the skill is listed in the request. Trials run
// one at a time, so the server's log splits into schemes, with-skill run, judge, no-skill run, judge, and each
// condition's requests can be checked on their own.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AgentName } from '../../../src/agents/index.js';
import { type AuditOptions, runAudit } from '../../../src/pipeline/audit.js';
import type { Report } from '../../../src/report/model.js';
import { validateReport } from '../../../src/report/schema.js';
import { CHECK_MARK, SKILL, scripts, TOTAL, writeSkill } from '../../support/fake-model/audit-script.js';
import {
  type FakeModelServer,
  type FakeTurn,
  type LoggedRequest,
  startFakeModelServer,
} from '../../support/fake-model-server.js';
import { modelAuditOptions, requireHarness } from '../../support/model-audit.js';

export interface HarnessAudit {
  server: FakeModelServer;
  dir: string;
  skillDir: string;
  options(out: string): AuditOptions;
  close(): Promise<void>;
}

/** Installs the harness (a cache hit on a prepared machine) and starts the server; `model` is provider/name. */
async function prepareHarnessAudit(
  agent: AgentName,
  model: string,
  env: Record<string, string>,
): Promise<HarnessAudit> {
  await requireHarness(agent);
  const server = await startFakeModelServer({ usage: { input: 1000, cached: 400, output: 60 } });
  const dir = mkdtempSync(join(tmpdir(), `skillaudit-${agent}-audit-`));
  return {
    server,
    dir,
    skillDir: writeSkill(dir),
    options(out) {
      return modelAuditOptions(
        out,
        { baseUrl: server.baseUrl, dir, model, env },
        { agents: [agent], scenarios: 1, concurrency: 1 },
      );
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Registers the file's hooks: the harness audit is prepared before the file's tests and closed after them. */
export function useHarnessAudit(agent: AgentName, model: string, env: Record<string, string>): HarnessAudit {
  let h: HarnessAudit | undefined;
  beforeAll(async () => {
    h = await prepareHarnessAudit(agent, model, env);
  }, 600_000);
  afterAll(async () => {
    await h?.close();
  });
  const ready = (): HarnessAudit => {
    if (!h) throw new Error('the harness audit is used before its beforeAll ran');
    return h;
  };
  return {
    get server() {
      return ready().server;
    },
    get dir() {
      return ready().dir;
    },
    get skillDir() {
      return ready().skillDir;
    },
    options: (out) => ready().options(out),
    close: () => ready().close(),
  };
}

/** Scripts for one scenario: the with-skill turns given, a no-skill run that writes nothing. */
export function harnessScripts(withSkill: FakeTurn[]) {
  return scripts(withSkill, [{ text: 'I looked at the invoices but wrote no file.' }], 1);
}

export async function auditOnce(h: HarnessAudit, out: string): Promise<{ report: Report; runDir: string }> {
  const [outcome] = await runAudit(h.skillDir, h.options(out));
  if (!outcome?.report || !outcome.runDir) throw new Error(`audit failed: ${JSON.stringify(outcome?.error)}`);
  return { report: outcome.report, runDir: outcome.runDir };
}

const bodyOf = (r: LoggedRequest) => JSON.stringify(r.body ?? '');

/**
 * The measurement the audit exists for: PRG 1 for this agent, the with-skill run loaded the skill (its
 * trajectory shows the load), the no-skill run never saw the skill, no agent request carried the checklist.
 */
export function expectSkillMeasured(
  agent: AgentName,
  harness: string,
  report: Report,
  runDir: string,
  requests: LoggedRequest[],
  loadStep: (step: { kind: string; tool?: string; input?: unknown; output?: string }) => boolean,
): void {
  expect(validateReport(report)).toEqual([]);
  expect(report.notRun.map((n) => n.stage)).toEqual(['detonate']);
  expect(report.configuration.utilityByAgent).toEqual([
    expect.objectContaining({ agent, harness, prg: 1, validPairs: 1, invalidPairs: 0 }),
  ]);
  const scenario = report.utility?.scenarios[0];
  expect(scenario?.withSkill).toMatchObject({ passed: 2, skillLoaded: true });
  expect(scenario?.noSkill).toMatchObject({ passed: 0, skillLoaded: null });

  const trial = (condition: string) =>
    JSON.parse(
      readFileSync(join(runDir, 'trials', `${SKILL}-s1__${condition}__${agent}`, 'result.json'), 'utf8'),
    ).run as {
      skillLoaded: boolean;
      steps: { kind: string; tool?: string; input?: unknown; output?: string }[];
    };
  const withRun = trial('with_skill');
  expect(withRun.skillLoaded).toBe(true);
  const load = withRun.steps.findIndex(loadStep);
  expect(load).toBeGreaterThanOrEqual(0);
  // The step after the load is the harness handing the model the skill's own text.
  expect(withRun.steps[load + 1]?.output).toContain('# House style');
  expect(trial('no_skill').skillLoaded).toBe(false);

  // The log in order: schemes, with-skill run, judge, no-skill run, judge (concurrency 1).
  const schemes = requests.flatMap((r, i) => (r.script === 'schemes' ? [i] : []));
  expect(schemes).toHaveLength(1);
  const judges = requests.flatMap((r, i) => (r.script?.startsWith('judge') ? [i] : []));
  expect(judges).toHaveLength(2);
  const withSkill = requests.slice((schemes[0] as number) + 1, judges[0]);
  const noSkill = requests.slice((judges[0] as number) + 1, judges[1]);
  expect(withSkill.filter((r) => r.script === 'with-skill').length).toBeGreaterThanOrEqual(3);
  expect(noSkill.filter((r) => r.script === 'no-skill').length).toBeGreaterThanOrEqual(1);
  for (const r of noSkill) expect(bodyOf(r)).not.toContain(SKILL);
  for (const r of [...withSkill, ...noSkill]) expect(bodyOf(r)).not.toContain(CHECK_MARK);
  // The judge saw the checklist and the with-skill run's result, never the condition.
  for (const i of judges) {
    expect(bodyOf(requests[i] as LoggedRequest)).toContain(CHECK_MARK);
    expect(bodyOf(requests[i] as LoggedRequest)).not.toMatch(/with_skill|no_skill/);
  }
  expect(requests[judges[0] as number]?.script).toBe('judge-pass');
  expect(bodyOf(requests[judges[0] as number] as LoggedRequest)).toContain(TOTAL);
}
