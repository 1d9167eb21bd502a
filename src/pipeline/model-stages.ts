import { join } from 'node:path';
import { type AgentModel, type AgentName, getAgent, harnessVersion, installAgent } from '../agents/index.js';
import type { Finding, Skill, Verdict } from '../core/types.js';
import { type JudgeResult, judgeProbe, judgeTrial, type ProbeJudgement, skillTexts } from '../judge/index.js';
import { BudgetExceeded, formatModelSpec, type ModelClient, type ModelSettings } from '../model/index.js';
import type { DimensionResult } from '../quality/index.js';
import type { UtilitySummary } from '../report/index.js';
import type { SandboxLimits } from '../sandbox/index.js';
import {
  generateProbeScheme,
  generateUtilityScheme,
  type ProbeScheme,
  type ProbeSpec,
  readSchemes,
  type Scenario,
  type UtilityScheme,
  writeSchemes,
} from '../schemes/index.js';
import { DEFAULT_ALPHA } from '../score/index.js';
import { CONDITIONS, type Condition, compileProbe, exportTasks } from '../tasks/index.js';
import { errorMessage, UserError } from '../util/errors.js';
import { type JudgedTrial, type JudgedTrialContext, runJudgedTrial } from './judged-trial.js';
import { runPool } from './pool.js';
import { runQualityStage } from './quality-stage.js';
import { materialOf, TRIALS_DIR, type TrialKey, type TrialSpec, taskSha, trialFolder } from './trial.js';
import { type JudgedPair, summariseUtility, type TrialOutcome } from './utility-summary.js';

// The model-backed half of an audit (seed 000 section 4; DESIGN sections 2 and 7): schemes, Harbor tasks,
// paired with-skill / no-skill trials per agent, the blind checklist judge, utility scores, and agent-driven
// security probes for findings detonation could not settle. Every artifact lands in the run folder; finished
// trials are reused on a re-run; a spent cost cap stops new work and the report lists what did not run.

export interface ModelAuditOptions {
  settings: ModelSettings;
  /** A separate judge model (`--judge-model`); absent, the judge is `settings`' model. */
  judgeSettings?: ModelSettings;
  /** One or more agents; the first one's scores are the report's `utility`. */
  agents: AgentName[];
  /** Utility scenarios to generate (seed 000 uses 3). */
  scenarios?: number;
  /** Trials running at once. */
  concurrency?: number;
  /** α of ECG (eq. 4). */
  alpha?: number;
  /** Sandbox limits of each agent run. */
  limits?: Partial<SandboxLimits>;
  /** Paraphrases per scenario and boundary requests per type for the quality profile (0, the default: none). */
  qualityRuns?: number;
  onProgress?: (message: string) => void;
}

export interface AgentUtility {
  agent: AgentName;
  harness: string | null;
  model: string;
  utility: UtilitySummary;
  validPairs: number;
  invalidPairs: number;
}

export interface ModelStagesResult {
  /** The first agent's utility, or null when no pair of it ran. */
  utility: UtilitySummary | null;
  /** One row per agent configuration that ran. */
  byAgent: AgentUtility[];
  /** Verdicts of security probes that settled something. */
  probeVerdicts: Verdict[];
  notRun: { stage: string; reason: string }[];
  /** The dynamic and rubric quality dimensions measured from these runs (quality-stage.ts). */
  quality?: DimensionResult[];
}

interface StageContext {
  skill: Skill;
  runDir: string;
  findings: readonly Finding[];
  verdicts: readonly Verdict[];
}

type NotRun = ModelStagesResult['notRun'];

const PUBLIC_BASE_URL: Record<AgentModel['provider'], string | undefined> = {
  anthropic: 'https://api.anthropic.com/v1',
  openai: 'https://api.openai.com/v1',
  'openai-compatible': undefined,
};

/** The endpoint the agents call: the same provider, model, base URL and key as the audit's model. */
export function agentModelOf(settings: ModelSettings): AgentModel {
  const provider: AgentModel['provider'] =
    settings.spec.provider === 'anthropic' || settings.spec.provider === 'openai'
      ? settings.spec.provider
      : 'openai-compatible';
  const baseUrl = settings.baseUrl ?? PUBLIC_BASE_URL[provider];
  if (!baseUrl)
    throw new UserError('USAGE', `${formatModelSpec(settings.spec)} needs --base-url for the agents`);
  // Local OpenAI-compatible servers often take any key; the real providers reject a missing one themselves.
  return { provider, baseUrl, model: settings.spec.model, apiKey: settings.apiKey ?? 'none' };
}

async function loadOrGenerateSchemes(
  ctx: StageContext,
  client: ModelClient,
  options: ModelAuditOptions,
): Promise<{ utility: UtilityScheme; probes: ProbeScheme; reused: boolean }> {
  const stored = await readSchemes(ctx.runDir);
  if (stored) return { ...stored, reused: true };
  options.onProgress?.('schemes: writing scenarios');
  const utility = await generateUtilityScheme(client, ctx.skill, { scenarios: options.scenarios ?? 3 });
  options.onProgress?.('schemes: writing security probes');
  const probes = await generateProbeScheme(client, ctx.skill, ctx.findings, ctx.verdicts);
  await writeSchemes(ctx.runDir, utility, probes);
  return { utility, probes, reused: false };
}

interface TrialJob {
  spec: TrialSpec;
  /** Evaluator side: the scenario to judge against, or the probe and its finding. */
  judge: { scenario: Scenario } | { probe: ProbeSpec; finding: Finding };
}

type JobOutcome = JudgedTrial<JudgeResult | ProbeJudgement> & { job: TrialJob };

/** `judge` answers the checklist and probe judge calls (default: `client`, the agents' model). */
export async function runModelStages(
  ctx: StageContext,
  client: ModelClient,
  options: ModelAuditOptions,
  judge: ModelClient = client,
): Promise<ModelStagesResult> {
  const notRun: NotRun = [];
  const model = formatModelSpec(client.spec);
  const judgeModel = formatModelSpec(judge.spec);
  const progress = options.onProgress ?? (() => {});
  const empty = (why: string): ModelStagesResult => {
    for (const stage of ['trials', 'judge', 'probes']) notRun.push({ stage, reason: why });
    return { utility: null, byAgent: [], probeVerdicts: [], notRun };
  };

  let schemes: Awaited<ReturnType<typeof loadOrGenerateSchemes>>;
  try {
    schemes = await loadOrGenerateSchemes(ctx, client, options);
  } catch (error) {
    const why =
      error instanceof BudgetExceeded
        ? errorMessage(error)
        : `scheme generation failed: ${errorMessage(error)}`;
    notRun.push({ stage: 'schemes', reason: why });
    return empty(`no scenarios: ${why}`);
  }
  const { utility: scheme, probes } = schemes;
  for (const d of scheme.dropped)
    notRun.push({ stage: 'schemes', reason: `scenario ${d.scenario} left out: ${d.problems.join('; ')}` });
  for (const m of probes.missing)
    notRun.push({ stage: 'probes', reason: `no probe for finding ${m.finding}: ${m.reason}` });

  // Harbor task folders: the same instruction and inputs the trials below receive.
  const tasksDir = join(ctx.runDir, 'tasks');
  const exported = await exportTasks(tasksDir, ctx.skill, scheme);
  const taskOf = new Map(exported.map((t) => [t.scenario, t.task]));
  const probeTasks = new Map<string, string>();
  for (const p of probes.probes) probeTasks.set(p.id, (await compileProbe(tasksDir, ctx.skill, p)).task);

  const agents: AgentName[] = [];
  for (const name of [...new Set(options.agents)]) {
    try {
      getAgent(name);
      progress(`${name}: preparing the harness`);
      await installAgent(name);
      agents.push(name);
    } catch (error) {
      notRun.push({ stage: 'trials', reason: `agent ${name} unavailable: ${errorMessage(error)}` });
    }
  }
  if (agents.length === 0) return empty('no agent could run');
  const agentModel = agentModelOf(options.settings);

  const keyOf = (
    task: string,
    scenario: string,
    condition: Condition,
    agent: AgentName,
    sha: string,
  ): TrialKey => ({
    skillId: ctx.skill.id,
    task,
    scenario,
    condition,
    agent,
    model,
    taskSha: sha,
  });
  const jobs: TrialJob[] = [];
  for (const agent of agents) {
    for (const scenario of scheme.scenarios) {
      const sha = taskSha(scenario.instruction, scenario.materials);
      for (const condition of CONDITIONS) {
        jobs.push({
          spec: {
            key: keyOf(taskOf.get(scenario.id) ?? scenario.id, scenario.id, condition, agent, sha),
            instruction: scenario.instruction,
            materials: scenario.materials,
            skill: condition === 'with_skill' ? ctx.skill : null,
          },
          judge: { scenario },
        });
      }
    }
  }
  // One with-skill run per probe, with the first agent: the question is whether the skill's risky path runs.
  const findingById = new Map(ctx.findings.map((f) => [f.id, f]));
  for (const probe of probes.probes) {
    const finding = findingById.get(probe.finding);
    if (!finding) {
      notRun.push({
        stage: 'probes',
        reason: `probe ${probe.id}: finding ${probe.finding} is not in this scan`,
      });
      continue;
    }
    const sha = taskSha(probe.instruction, probe.materials);
    jobs.push({
      spec: {
        key: keyOf(probeTasks.get(probe.id) ?? probe.id, probe.id, 'with_skill', agents[0] as AgentName, sha),
        instruction: probe.instruction,
        materials: probe.materials,
        skill: ctx.skill,
      },
      judge: { probe, finding },
    });
  }

  let done = 0;
  const notEvidence = skillTexts(ctx.skill);
  const label = (key: TrialKey) => `${key.agent} ${key.scenario} ${key.condition}`;
  const trials: JudgedTrialContext = {
    runDir: ctx.runDir,
    client,
    judgeModel,
    agentModel,
    ...(options.limits ? { limits: options.limits } : {}),
    stage: (spec) => `trials.${spec.key.agent}`,
    cap: { spent: null },
    onStep: (spec, step) => progress(`${label(spec.key)}: ${step} (${done}/${jobs.length} done)`),
  };
  const runJob = async (job: TrialJob): Promise<JobOutcome> => {
    const trial = await runJudgedTrial<JudgeResult | ProbeJudgement>(trials, job.spec, (run) =>
      'scenario' in job.judge
        ? judgeTrial(judge, job.judge.scenario, materialOf(run), { notEvidence })
        : judgeProbe(judge, job.judge.probe, job.judge.finding, materialOf(run)),
    );
    // A trial the cap kept from starting is not done: it is counted in notRun below.
    if (!trial.skipped) done++;
    if (trial.judgement) progress(`${label(job.spec.key)}: done (${done}/${jobs.length})`);
    return { ...trial, job };
  };

  const settled = await runPool(
    jobs.map((job) => () => runJob(job)),
    options.concurrency ?? 2,
  );
  const outcomes = settled.map((s, i): JobOutcome => {
    if (s.status === 'fulfilled') return s.value;
    const job = jobs[i] as TrialJob;
    return { job, spec: job.spec, run: null, judgement: null, failure: errorMessage(s.reason) };
  });

  const skipped = outcomes.filter((o) => o.skipped);
  if (skipped.length > 0) {
    notRun.push({
      stage: 'trials',
      reason: `${trials.cap.spent ? errorMessage(trials.cap.spent) : 'cost cap reached'}: ${skipped.length} of ${jobs.length} trials not run (${skipped.map(folderName).join(', ')})`,
    });
  }
  const paired = new Set<JobOutcome>();

  const byAgent: AgentUtility[] = [];
  for (const agent of agents) {
    const pairs: JudgedPair[] = [];
    for (const scenario of scheme.scenarios) {
      const side = (condition: Condition) =>
        outcomes.find(
          (o) =>
            'scenario' in o.job.judge &&
            o.job.spec.key.agent === agent &&
            o.job.spec.key.scenario === scenario.id &&
            o.job.spec.key.condition === condition,
        );
      const w = side('with_skill');
      const wo = side('no_skill');
      // A pair with a side the cap kept from starting is not a measurement: it is listed in notRun above.
      if (!w || !wo || w.skipped || wo.skipped) continue;
      paired.add(w).add(wo);
      pairs.push({
        scenario,
        withSkill: trialOutcome(w, agent, model),
        noSkill: trialOutcome(wo, agent, model),
      });
    }
    if (pairs.length === 0) continue;
    const { summary, scores } = summariseUtility(pairs, options.alpha ?? DEFAULT_ALPHA);
    for (const invalid of scores.invalidPairs)
      notRun.push({
        stage: 'judge',
        reason: `${agent} scenario ${invalid.scenario} excluded: ${invalid.reason}`,
      });
    byAgent.push({
      agent,
      harness: harnessVersion(agent),
      model,
      utility: summary,
      validPairs: scores.validPairs,
      invalidPairs: scores.invalidPairs.length,
    });
  }

  // Runs whose pair was never scored (its other side did not start): their missing judgement is still news.
  for (const o of outcomes) {
    if ('scenario' in o.job.judge && o.run && !o.judgement && !paired.has(o))
      notRun.push({
        stage: 'judge',
        reason: `${folderName(o)} not judged: ${o.failure ?? 'unknown reason'}`,
      });
  }

  const probeVerdicts: Verdict[] = [];
  for (const o of outcomes) {
    if (!('probe' in o.job.judge) || o.skipped) continue;
    const j = o.judgement as ProbeJudgement | null;
    if (!j) {
      notRun.push({ stage: 'probes', reason: `probe ${o.job.judge.probe.id}: ${o.failure ?? 'not judged'}` });
    } else if (j.kind === 'no_probe') {
      notRun.push({ stage: 'probes', reason: `probe ${o.job.judge.probe.id} settled nothing: ${j.reason}` });
    } else {
      const folder = trialFolder(o.job.spec.key);
      probeVerdicts.push({
        finding: j.finding,
        kind: j.kind,
        exploitConfidence: j.exploitConfidence,
        evidence: [...j.evidence, `${folder}/judge.json`, `${folder}/evidence.json`],
      });
    }
  }

  const first = byAgent.find((a) => a.agent === agents[0]);
  if (!first) notRun.push({ stage: 'utility', reason: `no scenario pair of ${agents[0]} ran to the end` });
  // The quality profile's dynamic and rubric dimensions from these runs, plus any extra runs it asks for.
  const quality = await runQualityStage({
    skill: ctx.skill,
    runDir: ctx.runDir,
    client,
    judge,
    scenarios: scheme.scenarios,
    agents,
    agentModel,
    trials: outcomes.flatMap((o) =>
      'scenario' in o.job.judge && o.job.spec.key.condition === 'with_skill' && !o.skipped
        ? [
            {
              key: o.job.spec.key,
              scenario: o.job.judge.scenario,
              run: o.run,
              judgement: o.judgement as JudgeResult | null,
            },
          ]
        : [],
    ),
    qualityRuns: options.qualityRuns ?? 0,
    concurrency: options.concurrency ?? 2,
    ...(options.limits ? { limits: options.limits } : {}),
    onProgress: progress,
  });
  notRun.push(...quality.notRun);
  return { utility: first?.utility ?? null, byAgent, probeVerdicts, notRun, quality: quality.dimensions };
}

const folderName = (o: JobOutcome) => trialFolder(o.job.spec.key).slice(`${TRIALS_DIR}/`.length);

function trialOutcome(o: JobOutcome, agent: AgentName, model: string): TrialOutcome {
  return {
    folder: trialFolder(o.job.spec.key),
    agent: `${agent} (${model})`,
    run: o.run,
    judge: (o.judgement as JudgeResult | null) ?? null,
    ...(o.failure ? { failure: o.failure } : {}),
  };
}
