// The quality profile's dynamic and rubric dimensions from a model-backed audit's own runs, end to end: the
// builtin agent in the real sandbox, the judges and scheme writers on the scripted fake model server over HTTP.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOptions, runAudit } from '../../../src/pipeline/audit.js';
import { TASK_GRANULARITY_RUBRIC } from '../../../src/quality/rubrics.js';
import type { Report } from '../../../src/report/model.js';
import { validateReport } from '../../../src/report/schema.js';
import { runCli } from '../../support/cli-run.js';
import {
  CHECK_MARK,
  isChainJudge,
  isGranularityJudge,
  LOADS_AND_WRITES,
  RUBRIC_SCRIPTS,
  SKILL,
  scripts,
  writeSkill,
} from '../../support/fake-model/audit-script.js';
import {
  type FakeModelServer,
  type FakeScript,
  type FakeTurn,
  type LoggedRequest,
  startFakeModelServer,
} from '../../support/fake-model-server.js';
import { modelAuditOptions } from '../../support/model-audit.js';

let server: FakeModelServer;
let dir: string;

beforeAll(async () => {
  server = await startFakeModelServer({ usage: { input: 1000, cached: 0, output: 50 } });
  dir = mkdtempSync(join(tmpdir(), 'skillaudit-quality-'));
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function options(
  out: string,
  model: { scenarios: number; qualityRuns?: number; concurrency?: number },
  maxCost?: string,
): AuditOptions {
  return modelAuditOptions(
    out,
    { baseUrl: server.url, dir, ...(maxCost ? { maxCost } : {}) },
    { agents: ['builtin'], concurrency: 2, ...model },
  );
}

async function audit(skillDir: string, opts: AuditOptions): Promise<{ report: Report; runDir: string }> {
  const [outcome] = await runAudit(skillDir, opts);
  if (!outcome?.report || !outcome.runDir) throw new Error(`audit failed: ${JSON.stringify(outcome?.error)}`);
  expect(validateReport(outcome.report)).toEqual([]);
  return { report: outcome.report, runDir: outcome.runDir };
}

const dimension = (report: Report, id: string) => report.quality?.dimensions.find((d) => d.id === id);
const stored = (runDir: string) =>
  JSON.parse(readFileSync(join(runDir, 'quality', 'dimensions.json'), 'utf8')).dimensions as {
    id: string;
    score: number | null;
    evidence: Record<string, unknown>;
  }[];
const bodyOf = (r: LoggedRequest) => JSON.stringify(r.body ?? '');
/** Table 12 normalisation written out by hand: 1 up to the interval's top, linear to 0 at the threshold. */
const norm = (v: number, high: number, upper: number) =>
  v <= high ? 1 : v >= upper ? 0 : (upper - v) / (upper - high);

const paraphrase = (n: number) =>
  `Could you add up batch ${n} from invoices.csv and leave the overall sum in totals.txt?`;
const haiku = 'Write a short haiku about autumn leaves and save it as poem.txt.';
const pdf = 'Turn the invoice summary into a branded PDF invoice with our company logo.';
const decline = 'This skill only formats invoice summary lines, so it does not cover poems; I left it.';

/**
 * The utility scripts plus the quality writers, the boundary judge and the agents of the extra runs: the
 * paraphrase of batch 1 is done, of batch 2 only looked at; the unrelated request is declined with a reason,
 * the adversarial one carried out. Judges and writers come first (their prompts quote the requests).
 */
function extraScripts(scenarios: number): FakeScript[] {
  const judge = (name: string, needle: string, response: string, quote: string): FakeScript => ({
    name,
    match: (r) => r.raw.includes("SkillAudit's capability-boundary judge") && r.raw.includes(needle),
    turns: [{ json: { response, evidence: [quote], reason: 'scripted' } }],
  });
  const agent = (name: string, needle: string, turns: FakeTurn[]): FakeScript => ({
    name,
    match: (r) => r.structured === null && r.raw.includes(needle),
    turns,
  });
  const looks: FakeTurn[] = [{ toolCalls: [{ name: 'skill', input: { name: SKILL } }] }];
  const base = scripts(LOADS_AND_WRITES, [{ text: 'nothing written' }], scenarios);
  const batches = Array.from({ length: scenarios }, (_, i) => i + 1);
  return [
    ...base.filter((s) => !s.name.endsWith('-skill')),
    {
      name: 'paraphrase-writer',
      match: (r) => r.raw.includes('paraphrases of user requests'),
      turns: [
        { json: { paraphrases: batches.map((n) => ({ scenario: `s${n}`, instructions: [paraphrase(n)] })) } },
      ],
    },
    {
      name: 'boundary-writer',
      match: (r) => r.raw.includes('out-of-scope requests'),
      turns: [{ json: { unrelated: [haiku], adversarial: [pdf] } }],
    },
    judge('boundary-judge-unrelated', 'haiku', 'unsupported_with_explanation', decline),
    judge(
      'boundary-judge-adversarial',
      'branded PDF',
      'treated_as_supported',
      'Made the branded PDF invoice.',
    ),
    agent('para-agent-1', paraphrase(1), LOADS_AND_WRITES),
    agent('para-agent-2', paraphrase(2), [...looks, { text: 'Read the invoices.' }]),
    agent('boundary-unrelated', 'haiku', [...looks, { text: decline }]),
    agent('boundary-adversarial', 'branded PDF', [...looks, { text: 'Made the branded PDF invoice.' }]),
    ...base.filter((s) => s.name.endsWith('-skill')),
  ];
}

describe('audit --model: quality dimensions from the audit runs', () => {
  it('scores efficiency and both rubrics from one agent; robustness, perturbation and boundary say why not', async () => {
    server.reset();
    server.setScripts(
      scripts(LOADS_AND_WRITES, [{ text: 'I looked at the invoices but wrote nothing.' }], 1),
    );
    const skillDir = writeSkill(join(dir, 'one'));
    const { report, runDir } = await audit(skillDir, options(join(dir, 'one-out'), { scenarios: 1 }));

    // Efficiency from the with-skill trial: three model turns of 1000 prompt tokens, two tool calls, one message.
    const trial = `trials/${SKILL}-s1__with_skill__builtin`;
    const result = JSON.parse(readFileSync(join(runDir, trial, 'result.json'), 'utf8')).run;
    const efficiency = stored(runDir).find((d) => d.id === 'efficiency');
    const [run] = (efficiency?.evidence.runs ?? []) as { parts: { quantity: string; value: number }[] }[];
    expect(Object.fromEntries(run?.parts.map((p) => [p.quantity, p.value]) ?? [])).toEqual({
      promptTokens: 3000,
      planSteps: 3,
      latencyMs: result.wallMs,
      toolCalls: 2,
    });
    const expected = 0.3 * norm(3000, 2000, 8000) + 0.25 + 0.2 * norm(result.wallMs, 3000, 15000) + 0.25;
    expect(dimension(report, 'efficiency')?.score).toBeCloseTo(expected, 4);
    expect(efficiency?.evidence.artifacts).toEqual([`${trial}/result.json`]);
    // The report names the same files next to the score.
    expect(dimension(report, 'efficiency')?.artifacts).toEqual([`${trial}/result.json`]);

    // Rubrics: the judged levels, each judgement kept as an artifact the evidence names.
    expect(dimension(report, 'behavior-chain-semantic-consistency')).toMatchObject({
      status: 'scored',
      score: 0.75,
    });
    expect(dimension(report, 'task-abstraction-granularity')).toMatchObject({ status: 'scored', score: 1 });
    const chain = stored(runDir).find((d) => d.id === 'behavior-chain-semantic-consistency');
    const chainFile = `quality/behavior-chain/${SKILL}-s1__with_skill__builtin.json`;
    expect(chain?.evidence.artifacts).toEqual([chainFile]);
    expect(existsSync(join(runDir, chainFile))).toBe(true);
    expect(existsSync(join(runDir, 'quality', 'task-granularity.json'))).toBe(true);

    expect(dimension(report, 'cross-model-robustness')).toMatchObject({
      status: 'not_run',
      score: null,
      reason: 'needs two or more model configurations (--agents a,b)',
    });
    for (const id of ['intent-perturbation-stability', 'capability-boundary-handling'])
      expect(dimension(report, id)?.reason).toMatch(
        /^off by default, as it costs extra agent runs: --quality-runs N/,
      );
    expect(report.quality?.groups.rubric).toBe(0.875);
    expect(report.quality?.groups.dynamic).toBe(dimension(report, 'efficiency')?.score);
    expect(report.configuration.qualityRuns).toBe(0);

    // The wire: rubric text verbatim; the skill and the trajectory only inside data blocks; one call each.
    const granularity = server.requests.filter((r) => r.script === 'rubric-granularity');
    expect(granularity).toHaveLength(1);
    const g = bodyOf(granularity[0] as LoggedRequest);
    for (const level of TASK_GRANULARITY_RUBRIC) expect(g).toContain(level.criterion);
    expect(g).toContain('<skill_file path=\\"SKILL.md\\">');
    const chains = server.requests.filter((r) => r.script === 'rubric-chain');
    expect(chains).toHaveLength(1);
    expect(bodyOf(chains[0] as LoggedRequest)).toMatch(/<trajectory steps=\\"\d+\\">/);
    for (const r of [...granularity, ...chains]) expect(bodyOf(r)).not.toContain(CHECK_MARK);

    // A re-run reuses every run and judgement: no model request at all.
    server.reset();
    const { report: again } = await audit(skillDir, options(join(dir, 'one-out'), { scenarios: 1 }));
    expect(server.requests).toEqual([]);
    expect(again.quality).toEqual(report.quality);
  }, 120_000);

  it('a judge failure leaves its dimension not run with the reason; the rest of the audit stands', async () => {
    server.reset();
    server.setScripts([
      {
        name: 'bad-granularity',
        match: isGranularityJudge,
        turns: [{ json: { score: 0.6, evidence: ['The summary line reads'], rationale: 'between levels' } }],
      },
      {
        name: 'bad-chain',
        match: isChainJudge,
        turns: [{ json: { score: 1, evidence: ['a line the agent never wrote'], rationale: 'made up' } }],
      },
      ...scripts(LOADS_AND_WRITES, [{ text: 'nothing written' }], 1).filter(
        (s) => !RUBRIC_SCRIPTS.includes(s),
      ),
    ]);
    const skillDir = writeSkill(join(dir, 'bad-judge'));
    const { report } = await audit(skillDir, options(join(dir, 'bad-judge-out'), { scenarios: 1 }));
    expect(report.utility?.prg).toBe(1);
    expect(dimension(report, 'task-abstraction-granularity')).toMatchObject({
      status: 'not_run',
      score: null,
    });
    expect(dimension(report, 'task-abstraction-granularity')?.reason).toBe(
      "no judgement of the skill: skill: judge failed: the judge's score 0.6 is not a level of the task-abstraction-granularity rubric (levels 0, 0.25, 0.5, 0.75, 1)",
    );
    expect(dimension(report, 'behavior-chain-semantic-consistency')?.reason).toMatch(
      new RegExp(
        `^no trajectory was judged: trials/${SKILL}-s1__with_skill__builtin/result.json: judge failed: no quote of the 1 level was found`,
      ),
    );
    expect(report.quality?.groups.rubric).toBeNull();
    expect(dimension(report, 'efficiency')?.status).toBe('scored');
  }, 120_000);

  it('--quality-runs 1: paraphrases and out-of-scope requests run with the skill and are judged', async () => {
    server.reset();
    server.setScripts(extraScripts(2));
    const skillDir = writeSkill(join(dir, 'extra'));
    const out = join(dir, 'extra-out');
    const { report, runDir } = await audit(skillDir, options(out, { scenarios: 2, qualityRuns: 1 }));

    // s1: original 1, paraphrase 1; s2: original 1, paraphrase 0 → (1 + 0) / 2.
    expect(dimension(report, 'intent-perturbation-stability')).toMatchObject({
      status: 'scored',
      score: 0.5,
    });
    // Table 11: unrelated declined with an explanation (1.0), adversarial treated as supported (0.0).
    expect(dimension(report, 'capability-boundary-handling')).toMatchObject({ status: 'scored', score: 0.5 });
    const boundary = stored(runDir).find((d) => d.id === 'capability-boundary-handling');
    expect(boundary?.evidence.meanByType).toEqual({ unrelated: 1, adversarial: 0 });
    expect(boundary?.evidence.artifacts).toEqual([
      'schemes/boundary.json',
      'trials/quality-adversarial1__with_skill__builtin/judge.json',
      'trials/quality-unrelated1__with_skill__builtin/judge.json',
    ]);
    for (const f of ['schemes/paraphrases.json', 'schemes/boundary.json'])
      expect(existsSync(join(runDir, f))).toBe(true);
    for (const t of ['quality-s1-para1', 'quality-s2-para1', 'quality-unrelated1', 'quality-adversarial1'])
      for (const f of ['result.json', 'evidence.json', 'judge.json'])
        expect(existsSync(join(runDir, 'trials', `${t}__with_skill__builtin`, f))).toBe(true);
    expect(report.configuration.qualityRuns).toBe(1);
    expect(report.quality?.dimensions.filter((d) => d.status === 'scored').map((d) => d.id)).toEqual([
      'structural-completeness',
      'conciseness',
      'description-content-consistency',
      'intent-perturbation-stability',
      'capability-boundary-handling',
      'efficiency',
      'behavior-chain-semantic-consistency',
      'task-abstraction-granularity',
    ]);

    // The extra runs: with the skill, never shown the checklist; the boundary request is addressed to the skill.
    const extraAgents = ['para-agent-1', 'para-agent-2', 'boundary-unrelated', 'boundary-adversarial'];
    const agentRuns = server.requests.filter((r) => extraAgents.includes(r.script ?? ''));
    expect(agentRuns.filter((r) => r.script === 'boundary-unrelated')).toHaveLength(2);
    for (const r of agentRuns) {
      expect(bodyOf(r)).not.toContain(CHECK_MARK);
      expect(bodyOf(r)).toContain(`- ${SKILL}: House style for invoice summaries.`);
    }
    expect(bodyOf(agentRuns.find((r) => r.script === 'boundary-unrelated') as LoggedRequest)).toContain(
      `Use the ${SKILL} skill for this: ${haiku}`,
    );
    // The paraphrased runs were judged against the scenario's own checklist, the paraphrase shown as the task.
    const judged = (t: string) =>
      JSON.parse(readFileSync(join(runDir, 'trials', `${t}__with_skill__builtin`, 'judge.json'), 'utf8'))
        .judgement;
    expect([judged('quality-s1-para1').passed, judged('quality-s2-para1').passed]).toEqual([2, 0]);
    expect(judged('quality-s2-para1').items).toBe(2);
    for (const n of [1, 2])
      expect(
        server.requests.filter((r) => r.script?.startsWith('judge-') && bodyOf(r).includes(paraphrase(n))),
      ).toHaveLength(1);

    // Resumable: a second audit reuses the schemes, runs and judgements.
    server.reset();
    const { report: again } = await audit(skillDir, options(out, { scenarios: 2, qualityRuns: 1 }));
    expect(server.requests).toEqual([]);
    expect(again.quality).toEqual(report.quality);
  }, 180_000);

  it('extra runs respect the cost cap: finished work kept, the rest said, a later audit resumes', async () => {
    server.reset();
    server.setScripts(extraScripts(1));
    const skillDir = writeSkill(join(dir, 'capped'));
    const out = join(dir, 'capped-out');
    await audit(skillDir, options(out, { scenarios: 1 }));

    // Nothing new may start: the utility trials and rubric judgements are reused, the writers refused.
    server.reset();
    const { report: none } = await audit(
      skillDir,
      options(out, { scenarios: 1, qualityRuns: 1 }, 'tokens:1'),
    );
    expect(server.requests).toEqual([]);
    expect(none.utility?.prg).toBe(1);
    expect(dimension(none, 'task-abstraction-granularity')?.status).toBe('scored');
    expect(dimension(none, 'intent-perturbation-stability')?.reason).toMatch(
      /^paraphrases not generated: cost cap 1 tokens reached/,
    );
    expect(dimension(none, 'capability-boundary-handling')?.reason).toMatch(
      /^boundary requests not generated: cost cap 1 tokens reached/,
    );

    // Room for the two writers (1050 tokens each) and one run started under the cap, one at a time.
    server.reset();
    const { report: capped } = await audit(
      skillDir,
      options(out, { scenarios: 1, qualityRuns: 1, concurrency: 1 }, 'tokens:2200'),
    );
    expect(server.requests.filter((r) => r.script === 'para-agent-1')).toHaveLength(3);
    expect(server.requests.filter((r) => r.script?.startsWith('boundary-'))).toHaveLength(1);
    expect(capped.notRun).toContainEqual({
      stage: 'quality',
      reason: expect.stringMatching(/^cost cap 2200 tokens reached .*: later quality runs not started$/),
    });
    expect(dimension(capped, 'intent-perturbation-stability')?.reason).toMatch(
      /^no paraphrase run of a judged scenario was judged: trials\/quality-s1-para1__with_skill__builtin: judge: cost cap 2200 tokens reached/,
    );
    expect(dimension(capped, 'capability-boundary-handling')?.reason).toBe(
      'no boundary run was judged: trials/quality-adversarial1__with_skill__builtin: not started: cost cap reached (and 1 more)',
    );

    // Without the cap the audit finishes what was left and reuses the paraphrase run.
    server.reset();
    const { report: full } = await audit(skillDir, options(out, { scenarios: 1, qualityRuns: 1 }));
    expect(server.requests.filter((r) => r.script === 'para-agent-1')).toHaveLength(0);
    expect(server.requests.filter((r) => r.script?.endsWith('-writer'))).toHaveLength(0);
    expect(dimension(full, 'intent-perturbation-stability')).toMatchObject({ status: 'scored', score: 1 });
    expect(dimension(full, 'capability-boundary-handling')).toMatchObject({ status: 'scored', score: 0.5 });
  }, 180_000);

  it('through the CLI: --quality-runs reaches the stage; writers that give nothing leave precise reasons', async () => {
    server.reset();
    server.setScripts([
      {
        name: 'paraphrase-writer',
        match: (r) => r.raw.includes('paraphrases of user requests'),
        turns: [{ json: { paraphrases: [] } }],
      },
      {
        name: 'boundary-writer',
        match: (r) => r.raw.includes('out-of-scope requests'),
        turns: [{ json: { unrelated: [], adversarial: [] } }],
      },
      ...scripts(LOADS_AND_WRITES, [{ text: 'nothing written' }], 1),
    ]);
    const skillDir = writeSkill(join(dir, 'cli'));
    const args = ['audit', skillDir, '--no-detonate', '--no-cache', '--out', join(dir, 'cli-out')];
    const model = ['--model', 'anthropic/claude-sonnet-4-5', '--base-url', server.url, '--scenarios', '1'];
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'test-key';
    try {
      const bad = await runCli([...args, ...model, '--quality-runs', 'two']);
      expect(bad.code).toBe(2);
      const { code, stdout } = await runCli([...args, ...model, '--quality-runs', '1', '--format', 'json']);
      expect(code).toBe(0);
      const report = JSON.parse(stdout) as Report;
      expect(report.configuration.qualityRuns).toBe(1);
      expect(dimension(report, 'intent-perturbation-stability')?.reason).toBe(
        'no paraphrase run of a judged scenario was judged',
      );
      expect(dimension(report, 'capability-boundary-handling')?.reason).toBe('no boundary run was judged');
      expect(report.notRun).toContainEqual({
        stage: 'schemes',
        reason: 's1 left out: the model wrote 0 of 1 paraphrases',
      });
      expect(report.notRun).toContainEqual({
        stage: 'schemes',
        reason: 'unrelated left out: the model wrote 0 of 1 unrelated requests',
      });
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
  }, 120_000);
});
