import type { AgentModel } from '../agents/index.js';
import { BudgetExceeded, costOf, type ModelClient, type Usage } from '../model/index.js';
import type { SandboxLimits } from '../sandbox/index.js';
import { errorMessage } from '../util/errors.js';
import {
  runTrial,
  type StoredRun,
  storedJudgement,
  storedRun,
  type TrialSpec,
  trialFolder,
  writeJudgement,
} from './trial.js';

// One agent run and its judgement as a resumable unit, shared by the utility trials and probes
// (model-stages.ts) and the quality stage's extra runs (quality-stage.ts): a finished run and judgement in the
// trial folder are reused (they cost nothing, even after the cap is spent); a new run starts only while the cap
// allows its estimated prompt, and its tokens are recorded in the client's ledger; a spent cap is remembered in
// `cap` so the runs queued after it are skipped, not failed.

export interface JudgedTrialContext {
  runDir: string;
  /** The agents' model: its budget caps new runs and its ledger records their tokens. */
  client: ModelClient;
  /** `provider/model` of the judge, recorded with each judgement (a judgement by another model is redone). */
  judgeModel: string;
  agentModel: AgentModel;
  limits?: Partial<SandboxLimits>;
  /** Ledger bucket of the agent's tokens, e.g. `quality.trials.builtin`. */
  stage: (spec: TrialSpec) => string;
  /** Shared between the trials of one stage: the first BudgetExceeded seen. */
  cap: { spent: BudgetExceeded | null };
  /** Told when a new run starts and when a judge call starts (reused work is silent). */
  onStep?: (spec: TrialSpec, step: 'running' | 'judging') => void;
}

export interface JudgedTrial<J> {
  spec: TrialSpec;
  run: StoredRun | null;
  judgement: J | null;
  /** Why there is no run or no judgement. */
  failure?: string;
  /** Not started: the cost cap was reached first. */
  skipped?: boolean;
}

/** Rough prompt size of a trial's first request, for the cap check before it starts. */
function promptEstimate(spec: TrialSpec): number {
  const chars =
    spec.instruction.length +
    spec.materials.reduce((n, m) => n + m.content.length, 0) +
    (spec.skill?.body.length ?? 0);
  return Math.ceil(chars / 4);
}

/** An agent run's tokens as one ledger call, priced at the client's model (the agents call the same model). */
function agentUsage(client: ModelClient, run: StoredRun): Usage {
  const price = client.price;
  return {
    ...run.tokens,
    calls: 1,
    cacheHits: 0,
    cost: price ? costOf(price, run.tokens) : 0,
    unpricedCalls: price ? 0 : 1,
  };
}

export async function runJudgedTrial<J>(
  ctx: JudgedTrialContext,
  spec: TrialSpec,
  judge: (run: StoredRun) => Promise<J>,
): Promise<JudgedTrial<J>> {
  const { key } = spec;
  let run = await storedRun(ctx.runDir, key);
  const reused = run !== null;
  if (!run) {
    if (ctx.cap.spent) return { spec, run: null, judgement: null, skipped: true };
    try {
      ctx.client.checkBudget(promptEstimate(spec), `trial ${trialFolder(key)}`);
      ctx.onStep?.(spec, 'running');
      run = await runTrial(ctx.runDir, spec, ctx.agentModel, ctx.limits);
      ctx.client.ledger.record(ctx.stage(spec), agentUsage(ctx.client, run));
    } catch (error) {
      if (error instanceof BudgetExceeded) {
        ctx.cap.spent ??= error;
        return { spec, run: null, judgement: null, skipped: true };
      }
      return { spec, run: null, judgement: null, failure: errorMessage(error) };
    }
  }
  let judgement = reused ? await storedJudgement<J>(ctx.runDir, key, ctx.judgeModel) : null;
  if (!judgement) {
    ctx.onStep?.(spec, 'judging');
    try {
      judgement = await judge(run);
      await writeJudgement(ctx.runDir, key, judgement, ctx.judgeModel);
    } catch (error) {
      if (error instanceof BudgetExceeded) ctx.cap.spent ??= error;
      return { spec, run, judgement: null, failure: `judge: ${errorMessage(error)}` };
    }
  }
  return { spec, run, judgement };
}
