import type { Command } from 'commander';
import type { AgentName } from '../agents/index.js';
import { UserError } from '../util/errors.js';
import { oneOf, positiveInt, unitInterval, wholeNumber } from './output.js';

// The flags of the model-backed stages that `audit` and `batch` share: which agents run the paired trials,
// how many scenarios, the combined gain's weight, the agent time limit, the quality runs and the judge model.

export const AGENTS = ['builtin', 'claude-code', 'codex', 'opencode'] as const;

export interface AgentFlags {
  agent: AgentName;
  agents?: string;
  scenarios: number;
  alpha: number;
  agentTimeout?: number;
  qualityRuns?: number;
}

export function addAgentOptions(cmd: Command): Command {
  return cmd
    .option('--agent <name>', `agent for the paired trials (${AGENTS.join(', ')})`, oneOf(AGENTS), 'builtin')
    .option('--agents <a,b>', 'several agents, one utility row each (the first one leads the report)')
    .option('--scenarios <n>', 'utility scenarios to generate', positiveInt, 3)
    .option(
      '--alpha <a>',
      'how much time saved counts against tokens saved when the two are combined into one efficiency figure (0-1; 0.5: equally)',
      unitInterval,
      0.5,
    )
    .option('--agent-timeout <seconds>', 'wall-clock limit of each agent run (default 600)', positiveInt)
    .option(
      '--quality-runs <n>',
      'quality profile: also run n paraphrases of each scenario and n unrelated + n adversarial requests with the skill (extra agent runs; off by default)',
      wholeNumber,
    )
    .option(
      '--judge-model <provider/name>',
      'a separate model for the judge (default: --model; the schemes and the agents use --model)',
    );
}

/** `--agents a,b` wins over `--agent`; each name must be a known agent. */
export function agentList(flags: AgentFlags): AgentName[] {
  if (!flags.agents) return [flags.agent];
  const names = flags.agents
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  for (const n of names)
    if (!(AGENTS as readonly string[]).includes(n))
      throw new UserError('USAGE', `unknown agent "${n}" in --agents: use ${AGENTS.join(', ')}`);
  if (names.length === 0) throw new UserError('USAGE', '--agents names no agent');
  return [...new Set(names)] as AgentName[];
}
