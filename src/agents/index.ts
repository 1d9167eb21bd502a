/**
 * Agent adapters (DESIGN section 6): run one task, with or without a skill, in a fresh sandbox and return a
 * normalised trajectory, tokens, wall time, whether the skill was loaded, and the evidence bundle.
 *
 *   const result = await getAgent('claude-code').run({ task, skill, model });
 *
 * Harness CLIs are installed on first use (see install.ts and docs/agents.md).
 */
import { UserError } from '../util/errors.js';
import { builtinAgent } from './builtin.js';
import { claudeCodeSpec } from './claude-code.js';
import { codexSpec } from './codex.js';
import { type HarnessSpec, runHarness } from './harness-run.js';

export { MODEL_CHANNEL } from './harness-run.js';

import { ensureHarness } from './install.js';
import { opencodeSpec } from './opencode.js';
import type { AgentAdapter, AgentName } from './types.js';

export { AGENT_PROVIDERS, agentSupports, checkAgentProvider } from './compatibility.js';
export { agentsDir } from './install.js';
export { PLACEHOLDER_KEY } from './model-bridge.js';
export type * from './types.js';

const harness = (spec: HarnessSpec): AgentAdapter => ({
  name: spec.name,
  run: (req) => runHarness(spec, req),
});

const SPECS: Record<Exclude<AgentName, 'builtin'>, HarnessSpec> = {
  'claude-code': claudeCodeSpec,
  codex: codexSpec,
  opencode: opencodeSpec,
};

const AGENTS: Record<AgentName, AgentAdapter> = {
  builtin: builtinAgent,
  'claude-code': harness(SPECS['claude-code']),
  codex: harness(SPECS.codex),
  opencode: harness(SPECS.opencode),
};

export const AGENT_NAMES = Object.keys(AGENTS) as AgentName[];

/** The pinned harness package behind each CLI agent, for reports and `--help`. */
export function harnessVersion(name: AgentName): string | null {
  const spec = SPECS[name as Exclude<AgentName, 'builtin'>];
  return spec ? `${spec.pkg.pkg}@${spec.pkg.version}` : null;
}

/** Installs the agent's harness into the cache now (a no-op for the built-in agent); returns its executable. */
export async function installAgent(name: AgentName): Promise<string | null> {
  const spec = SPECS[name as Exclude<AgentName, 'builtin'>];
  return spec ? ensureHarness(spec.pkg) : null;
}

export function getAgent(name: string): AgentAdapter {
  const agent = AGENTS[name as AgentName];
  if (!agent) throw new UserError('USAGE', `unknown agent "${name}": use one of ${AGENT_NAMES.join(', ')}`);
  return agent;
}
