import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { AgentModel, AgentName } from '../agents/index.js';
import type { Skill } from '../core/types.js';
import { type JudgeResult, judgeTrial, skillTexts } from '../judge/index.js';
import { BudgetExceeded, formatModelSpec, type ModelClient } from '../model/index.js';
import type { DimensionId, DimensionResult } from '../quality/index.js';
import {
  type BoundaryJudgement,
  type CrossModelOutcome,
  capabilityBoundaryHandling,
  crossModelRobustness,
  DIMENSIONS,
  efficiency,
  efficiencyObservation,
  intentPerturbationStability,
  judgeBehaviorChain,
  judgeBoundary,
  judgeTaskGranularity,
  notRunDimension,
  type RubricDimensionId,
  type RubricJudgement,
  rubricDimension,
} from '../quality/index.js';
import type { SandboxLimits } from '../sandbox/index.js';
import {
  type BoundaryRequest,
  type BoundaryScheme,
  generateBoundaryRequests,
  generateParaphrases,
  type Paraphrase,
  type ParaphraseScheme,
  SCHEMES_DIR,
  type Scenario,
} from '../schemes/index.js';
import { errorMessage } from '../util/errors.js';
import { type JudgedTrial, type JudgedTrialContext, runJudgedTrial } from './judged-trial.js';
import { runPool } from './pool.js';
import { readJsonFile, writeJsonFile } from './run-files.js';
import { materialOf, type StoredRun, type TrialKey, type TrialSpec, taskSha, trialFolder } from './trial.js';

// The dynamic and rubric quality dimensions (seed 001; docs/quality.md) from the audit's own runs:
// - efficiency (Table 12) and behaviour-chain consistency (Table 13) from the with-skill scenario trials;
// - cross-model robustness from the same scenarios judged under two or more agent/model configurations;
// - task abstraction granularity (Table 14): one judge call on the skill text;
// - intent-perturbation stability and capability-boundary handling (Table 11) from extra with-skill runs of
//   the first agent, only when `qualityRuns` asks for them (they cost agent runs).
// Every judgement and run is a keyed artifact in the run folder (reused on resume); every dimension's evidence
// lists the artifacts it was computed from; a dimension with nothing to compute from is not run, with the reason.

export const QUALITY_DIR = 'quality';
const VERSION = 1;

/** A with-skill scenario trial of the utility stage. */
export interface QualityTrial {
  key: TrialKey;
  scenario: Scenario;
  run: StoredRun | null;
  judgement: JudgeResult | null;
}

export interface QualityStageInput {
  skill: Skill;
  runDir: string;
  /** Writes the paraphrase and boundary schemes; its model runs the agents. */
  client: ModelClient;
  /** Answers every judge call (the same client unless --judge-model is set). */
  judge: ModelClient;
  scenarios: readonly Scenario[];
  /** Agents that ran, the first one being the audit's headline agent. */
  agents: readonly AgentName[];
  agentModel: AgentModel;
  trials: readonly QualityTrial[];
  /** Paraphrases per scenario and boundary requests per type to run; 0 turns both off. */
  qualityRuns: number;
  concurrency: number;
  limits?: Partial<SandboxLimits>;
  onProgress?: (message: string) => void;
}

export interface QualityStageResult {
  /** The six dynamic and rubric dimensions, scored or not run. */
  dimensions: DimensionResult[];
  notRun: { stage: string; reason: string }[];
}

const success = (j: JudgeResult) => (j.items === 0 ? 0 : j.passed / j.items);
const resultPath = (key: TrialKey) => `${trialFolder(key)}/result.json`;
const judgePath = (key: TrialKey) => `${trialFolder(key)}/judge.json`;
const configOf = (key: TrialKey) => `${key.agent} (${key.model})`;
const sha = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** A judgement or scheme stored with the key it was made for; a different key means it is redone. */
async function readKeyed<T>(runDir: string, rel: string, key: unknown): Promise<T | null> {
  const file = (await readJsonFile(join(runDir, rel))) as {
    version?: unknown;
    key?: unknown;
    value?: T;
  } | null;
  if (!file || file.version !== VERSION || JSON.stringify(file.key) !== JSON.stringify(key)) return null;
  return file.value ?? null;
}

async function keyed<T>(runDir: string, rel: string, key: unknown, make: () => Promise<T>): Promise<T> {
  const stored = await readKeyed<T>(runDir, rel, key);
  if (stored !== null) return stored;
  const value = await make();
  await writeJsonFile(join(runDir, rel), { version: VERSION, key, value });
  return value;
}

function withEvidence(d: DimensionResult, extra: Record<string, unknown>): DimensionResult {
  return { ...d, evidence: { ...d.evidence, ...extra } };
}

/** "judge failed: …" style reason from the failures, so a not-run dimension says exactly why. */
function failureReason(what: string, failures: readonly { subject: string; reason: string }[]): string {
  const [first] = failures;
  if (!first) return `no ${what}`;
  const more = failures.length > 1 ? ` (and ${failures.length - 1} more)` : '';
  return `no ${what}: ${first.subject}: ${first.reason}${more}`;
}

type Failure = { subject: string; reason: string };

/** Never throws: an unexpected error leaves the six dimensions not run with its message. */
export async function runQualityStage(input: QualityStageInput): Promise<QualityStageResult> {
  try {
    return await measureQuality(input);
  } catch (error) {
    const reason = `quality stage failed: ${errorMessage(error)}`;
    return {
      dimensions: MEASURED.map((id) => notRunDimension(id, reason)),
      notRun: [{ stage: 'quality', reason }],
    };
  }
}

const MEASURED = DIMENSIONS.filter((d) => d.group !== 'static').map((d) => d.id);

/** One judge call's outcome: its value, or null with the failure recorded (a spent cap remembered in `cap`). */
async function judged<T>(
  cap: JudgedTrialContext['cap'],
  failures: Failure[],
  subject: string,
  work: () => Promise<T>,
): Promise<T | null> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BudgetExceeded) cap.spent ??= error;
    failures.push({ subject, reason: `judge failed: ${errorMessage(error)}` });
    return null;
  }
}

async function measureQuality(input: QualityStageInput): Promise<QualityStageResult> {
  const { skill, runDir, judge } = input;
  const judgeModel = formatModelSpec(judge.spec);
  const progress = input.onProgress ?? (() => {});
  const notRun: QualityStageResult['notRun'] = [];
  const cap: JudgedTrialContext['cap'] = { spent: null };
  const finished = input.trials.filter((t): t is QualityTrial & { run: StoredRun } => t.run !== null);

  // Judge calls and extra runs share one pool, so the audit's concurrency bounds all of them.
  const tasks: (() => Promise<void>)[] = [];

  const chains: RubricJudgement[] = [];
  const chainFailures: Failure[] = [];
  for (const t of finished) {
    const subject = resultPath(t.key);
    const rel = `${QUALITY_DIR}/behavior-chain/${trialFolder(t.key).split('/').pop()}.json`;
    tasks.push(async () => {
      const judgement = await judged(cap, chainFailures, subject, () =>
        keyed(runDir, rel, { trial: t.key, run: sha(t.run), judgeModel }, () => {
          progress(`quality: judging the behaviour chain of ${subject}`);
          return judgeBehaviorChain(judge, skill, t.scenario.instruction, materialOf(t.run), subject);
        }),
      );
      if (judgement) chains.push({ ...judgement, subject: rel });
    });
  }

  const granularity: RubricJudgement[] = [];
  const granularityFailures: Failure[] = [];
  const granularityRel = `${QUALITY_DIR}/task-granularity.json`;
  tasks.push(async () => {
    const judgement = await judged(cap, granularityFailures, 'skill', () =>
      keyed(runDir, granularityRel, { skillId: skill.id, judgeModel }, () => {
        progress('quality: judging task granularity');
        return judgeTaskGranularity(judge, skill);
      }),
    );
    if (judgement) granularity.push({ ...judgement, subject: granularityRel });
  });

  const extra = input.qualityRuns > 0 ? await extraRunTasks(input, cap, notRun) : null;
  if (extra) tasks.push(...extra.tasks);

  const settled = await runPool(tasks, input.concurrency);
  chainFailures.sort((a, b) => a.subject.localeCompare(b.subject));
  for (const s of settled)
    if (s.status === 'rejected') notRun.push({ stage: 'quality', reason: errorMessage(s.reason) });
  if (cap.spent)
    notRun.push({ stage: 'quality', reason: `${errorMessage(cap.spent)}: later quality runs not started` });

  const dimensions: DimensionResult[] = [
    robustnessDimension(input),
    extra ? extra.perturbation() : offByDefault('intent-perturbation-stability', 'paraphrases per scenario'),
    extra
      ? extra.boundary()
      : offByDefault('capability-boundary-handling', 'unrelated and adversarial requests'),
    efficiencyDimension(finished),
    rubricResult('behavior-chain-semantic-consistency', chains, chainFailures, 'trajectory was judged'),
    rubricResult('task-abstraction-granularity', granularity, granularityFailures, 'judgement of the skill'),
  ];
  await writeJsonFile(join(runDir, QUALITY_DIR, 'dimensions.json'), { version: VERSION, dimensions });
  return { dimensions, notRun };
}

function offByDefault(id: DimensionId, what: string): DimensionResult {
  return notRunDimension(
    id,
    `off by default, as it costs extra agent runs: --quality-runs N runs N ${what} with the skill`,
  );
}

function efficiencyDimension(finished: readonly (QualityTrial & { run: StoredRun })[]): DimensionResult {
  if (finished.length === 0)
    return notRunDimension('efficiency', 'no with-skill trial finished (see trials)');
  return withEvidence(efficiency(finished.map((t) => efficiencyObservation(t.run))), {
    artifacts: finished.map((t) => resultPath(t.key)),
  });
}

function robustnessDimension(input: QualityStageInput): DimensionResult {
  if (input.agents.length < 2)
    return notRunDimension('cross-model-robustness', 'needs two or more model configurations (--agents a,b)');
  const judged = input.trials.filter(
    (t): t is QualityTrial & { judgement: JudgeResult } => t.judgement !== null,
  );
  const outcomes: CrossModelOutcome[] = input.scenarios.map((s) => ({
    scenario: s.id,
    byModel: Object.fromEntries(
      judged.filter((t) => t.scenario.id === s.id).map((t) => [configOf(t.key), success(t.judgement)]),
    ),
  }));
  const d = crossModelRobustness(outcomes);
  if (d.status === 'not_run')
    return notRunDimension(
      'cross-model-robustness',
      `no scenario's with-skill trial was judged under two or more of ${input.agents.join(', ')}`,
    );
  return withEvidence(d, { artifacts: judged.map((t) => judgePath(t.key)) });
}

function rubricResult(
  id: RubricDimensionId,
  judgements: readonly RubricJudgement[],
  failures: readonly Failure[],
  what: string,
): DimensionResult {
  if (judgements.length === 0) return notRunDimension(id, failureReason(what, failures));
  const sorted = [...judgements].sort((a, b) => a.subject.localeCompare(b.subject));
  return withEvidence(rubricDimension(id, sorted), {
    artifacts: sorted.map((j) => j.subject),
    ...(failures.length > 0 ? { unjudged: failures } : {}),
  });
}

/**
 * The paraphrase and boundary schemes (generated once, kept in schemes/), their with-skill runs of the first
 * agent as pool tasks, and the two dimensions computed once the pool has run them.
 */
async function extraRunTasks(
  input: QualityStageInput,
  cap: JudgedTrialContext['cap'],
  notRun: QualityStageResult['notRun'],
): Promise<{
  tasks: (() => Promise<void>)[];
  perturbation: () => DimensionResult;
  boundary: () => DimensionResult;
}> {
  const { skill, runDir, client, judge } = input;
  const agent = input.agents[0] as AgentName;
  const model = formatModelSpec(client.spec);
  const progress = input.onProgress ?? (() => {});
  const n = input.qualityRuns;

  const [paraphrased, bounded] = await Promise.allSettled([
    keyed<ParaphraseScheme>(
      runDir,
      `${SCHEMES_DIR}/paraphrases.json`,
      { skillId: skill.id, perScenario: n, scenarios: input.scenarios.map((s) => [s.id, s.instruction]) },
      () => {
        progress('schemes: paraphrasing scenarios');
        return generateParaphrases(client, skill, input.scenarios, n);
      },
    ),
    keyed<BoundaryScheme>(runDir, `${SCHEMES_DIR}/boundary.json`, { skillId: skill.id, perType: n }, () => {
      progress('schemes: writing out-of-scope requests');
      return generateBoundaryRequests(client, skill, n);
    }),
  ]);
  const schemeFailure = (r: PromiseSettledResult<unknown>, what: string): string | null => {
    if (r.status === 'fulfilled') return null;
    if (r.reason instanceof BudgetExceeded) cap.spent ??= r.reason;
    const why = `${what} not generated: ${errorMessage(r.reason)}`;
    notRun.push({ stage: 'schemes', reason: why });
    return why;
  };
  const paraphraseError = schemeFailure(paraphrased, 'paraphrases');
  const boundaryError = schemeFailure(bounded, 'boundary requests');
  const paraphrases = paraphrased.status === 'fulfilled' ? paraphrased.value : null;
  const boundary = bounded.status === 'fulfilled' ? bounded.value : null;
  for (const d of [...(paraphrases?.dropped ?? []), ...(boundary?.dropped ?? [])])
    notRun.push({ stage: 'schemes', reason: `${d.scenario} left out: ${d.problems.join('; ')}` });

  const ctx: JudgedTrialContext = {
    runDir,
    client,
    judgeModel: formatModelSpec(judge.spec),
    agentModel: input.agentModel,
    ...(input.limits ? { limits: input.limits } : {}),
    stage: (spec) => `quality.trials.${spec.key.agent}`,
    cap,
  };
  const specOf = (
    task: string,
    id: string,
    instruction: string,
    materials: Scenario['materials'],
  ): TrialSpec => ({
    key: {
      skillId: skill.id,
      task,
      scenario: id,
      condition: 'with_skill',
      agent,
      model,
      taskSha: taskSha(instruction, materials),
    },
    instruction,
    materials,
    skill,
  });
  const notEvidence = skillTexts(skill);
  const tasks: (() => Promise<void>)[] = [];

  const paraphraseRuns: { paraphrase: Paraphrase; trial: JudgedTrial<JudgeResult> }[] = [];
  const scenarioOf = new Map(input.scenarios.map((s) => [s.id, s]));
  for (const p of paraphrases?.paraphrases ?? []) {
    const scenario = scenarioOf.get(p.scenario);
    if (!scenario) continue;
    const spec = specOf(`quality-${p.id}`, p.id, p.instruction, scenario.materials);
    tasks.push(async () => {
      progress(`quality: ${agent} ${p.id}: running`);
      const trial = await runJudgedTrial(ctx, spec, (run) =>
        // Judged exactly like the original: the same checklist and rubric, with the paraphrased request shown.
        judgeTrial(judge, { ...scenario, instruction: p.instruction }, materialOf(run), { notEvidence }),
      );
      paraphraseRuns.push({ paraphrase: p, trial });
    });
  }

  const boundaryRuns: { request: BoundaryRequest; trial: JudgedTrial<BoundaryJudgement> }[] = [];
  for (const r of boundary?.requests ?? []) {
    // The request is addressed to the skill, so the run tests the skill's boundary, not the agent's general help.
    const instruction = `Use the ${skill.name} skill for this: ${r.instruction}`;
    const spec = specOf(`quality-${r.id}`, r.id, instruction, []);
    tasks.push(async () => {
      progress(`quality: ${agent} ${r.id}: running`);
      const trial = await runJudgedTrial(ctx, spec, (run) =>
        judgeBoundary(judge, { ...r, instruction }, skill, materialOf(run), { notEvidence }),
      );
      boundaryRuns.push({ request: r, trial });
    });
  }

  const trialFailure = (t: JudgedTrial<unknown>): Failure => ({
    subject: trialFolder(t.spec.key),
    reason: t.skipped ? 'not started: cost cap reached' : (t.failure ?? 'not judged'),
  });

  const perturbation = (): DimensionResult => {
    if (!paraphrases)
      return notRunDimension('intent-perturbation-stability', paraphraseError ?? 'no paraphrases');
    const originals = new Map(
      input.trials
        .filter((t) => t.key.agent === agent && t.judgement !== null)
        .map((t) => [t.scenario.id, t] as const),
    );
    // Pool order is completion order: sorted, so a resumed audit reports the same evidence.
    paraphraseRuns.sort((a, b) => a.paraphrase.id.localeCompare(b.paraphrase.id));
    const judged = paraphraseRuns.filter(
      (p) => p.trial.judgement !== null && originals.has(p.paraphrase.scenario),
    );
    const failures = paraphraseRuns
      .filter((p) => p.trial.judgement === null)
      .map((p) => trialFailure(p.trial));
    const outcomes = [...originals.values()].map((t) => ({
      scenario: t.scenario.id,
      original: success(t.judgement as JudgeResult),
      paraphrases: judged
        .filter((p) => p.paraphrase.scenario === t.scenario.id)
        .map((p) => success(p.trial.judgement as JudgeResult)),
    }));
    const d = intentPerturbationStability(outcomes);
    if (d.status === 'not_run')
      return notRunDimension(
        'intent-perturbation-stability',
        failureReason('paraphrase run of a judged scenario was judged', failures),
      );
    const used = judged.map((p) => p.trial.spec.key);
    return withEvidence(d, {
      agent: configOf(used[0] as TrialKey),
      paraphrases: judged.map((p) => ({ ...p.paraphrase, judge: judgePath(p.trial.spec.key) })),
      artifacts: [
        `${SCHEMES_DIR}/paraphrases.json`,
        ...[...originals.values()].map((t) => judgePath(t.key)),
        ...used.map(judgePath),
      ],
      ...(failures.length > 0 ? { unjudged: failures } : {}),
    });
  };

  const boundaryDimension = (): DimensionResult => {
    if (!boundary)
      return notRunDimension('capability-boundary-handling', boundaryError ?? 'no boundary requests');
    boundaryRuns.sort((a, b) => a.request.id.localeCompare(b.request.id));
    const judged = boundaryRuns.filter((b) => b.trial.judgement !== null);
    const failures = boundaryRuns.filter((b) => b.trial.judgement === null).map((b) => trialFailure(b.trial));
    if (judged.length === 0)
      return notRunDimension(
        'capability-boundary-handling',
        failureReason('boundary run was judged', failures),
      );
    return withEvidence(
      capabilityBoundaryHandling(judged.map((b) => b.trial.judgement as BoundaryJudgement)),
      {
        agent: configOf(judged[0]?.trial.spec.key as TrialKey),
        artifacts: [`${SCHEMES_DIR}/boundary.json`, ...judged.map((b) => judgePath(b.trial.spec.key))],
        ...(failures.length > 0 ? { unjudged: failures } : {}),
      },
    );
  };

  return { tasks, perturbation, boundary: boundaryDimension };
}
