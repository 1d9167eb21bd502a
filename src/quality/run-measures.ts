import type { AgentTokens, TrajectoryStep } from '../agents/index.js';
import type { EfficiencyObservation } from './efficiency.js';

// What Table 12's four quantities are in one agent run as SkillAudit records it (trial result.json):
// - prompt tokens: every prompt token the run sent over all its model turns (cached reads included: a cached
//   token is still read by the model);
// - plan steps: the agent's actions, i.e. its tool calls and its messages (one per decision it took);
// - response latency: the run's wall-clock time, sandbox included;
// - tools or commands: its tool calls (shell commands, file reads and writes, loading the skill).

export interface MeasuredRun {
  tokens: AgentTokens;
  wallMs: number;
  steps: readonly TrajectoryStep[];
}

export function efficiencyObservation(run: MeasuredRun): EfficiencyObservation {
  const toolCalls = run.steps.filter((s) => s.kind === 'tool_call').length;
  const messages = run.steps.filter((s) => s.kind === 'message').length;
  return {
    promptTokens: run.tokens.input,
    planSteps: toolCalls + messages,
    latencyMs: run.wallMs,
    toolCalls,
  };
}
