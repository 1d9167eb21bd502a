import type { AgentModel } from '../agents/index.js';
import { BudgetExceeded, type ModelClient, type Usage } from '../model/index.js';
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

// One agent run and its judgement as a resumable unit: a finished run and judgement in the trial folder are
// reused (they cost nothing, even after the cap is spent); a new run starts only while the cap allows its
// estimated prompt; a spent cap is remembered in `cap` so the runs queued after it are skipped, not failed.

export interface JudgedTrialContext {
  runDir: string;
  client: ModelClient;
  /** `provider/model` of the judge, recorded with each judgement (a judgement by another model is redone). */
  judgeModel: string;
  agentModel: AgentModel;
  limits?: Partial<SandboxLimits>;
  /** Ledger bucket of the agent's tokens, e.g. `quality.trials.builtin`. */
  stage: (spec: TrialSpec) => string;
  promptEstimate: (spec: TrialSpec) => number;
  agentUsage: (run: StoredRun) => Usage;
  /** Shared between the trials of one stage: the first BudgetExceeded seen. */
  cap: { spent: BudgetExceeded | null };
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
      ctx.client.checkBudget(ctx.promptEstimate(spec), `trial ${trialFolder(key)}`);
      run = await runTrial(ctx.runDir, spec, ctx.agentModel, ctx.limits);
      ctx.client.ledger.record(ctx.stage(spec), ctx.agentUsage(run));
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
