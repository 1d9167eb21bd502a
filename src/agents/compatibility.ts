// Which model providers (wire protocols) each agent can drive. The model bridge forwards requests unchanged
// (docs/agents.md, "Sandbox and network"): it does not translate between protocols, so a harness can only be
// given a model reached through the protocol it speaks. Checked before an audit makes any model request or
// starts any sandbox, so a mismatch costs nothing.
import type { ProviderId } from '../model/spec.js';
import { UserError } from '../util/errors.js';
import type { AgentName } from './types.js';

interface AgentProviders {
  providers: readonly ProviderId[];
  /** What the harness speaks, for the error message. */
  speaks: string;
  /** Why a provider is missing when the protocol alone does not explain it. */
  note?: string;
}

export const AGENT_PROVIDERS: Readonly<Record<AgentName, AgentProviders>> = {
  // Our own loop over the ai SDK: every provider the model layer has.
  builtin: {
    providers: ['anthropic', 'openai', 'openai-chat', 'openai-compatible'],
    speaks: 'any provider',
  },
  'claude-code': { providers: ['anthropic'], speaks: 'Anthropic Messages only' },
  codex: {
    // openai-compatible is the user's word that the server speaks Responses (vLLM, LiteLLM, Ollama's /v1/responses).
    providers: ['openai', 'openai-compatible'],
    speaks: 'OpenAI Responses only (its provider is configured with wire_api "responses")',
  },
  opencode: {
    providers: ['anthropic', 'openai'],
    speaks: 'Anthropic Messages or OpenAI Responses',
    note: 'a custom OpenAI-compatible provider makes OpenCode fetch its npm package at run time, which the sandbox cannot',
  },
};

export function agentSupports(agent: AgentName, provider: ProviderId): boolean {
  return AGENT_PROVIDERS[agent].providers.includes(provider);
}

/** Throws a usage error naming the agent, the provider and what works, when the agent cannot use the model. */
export function checkAgentProvider(agent: AgentName, provider: ProviderId, model: string): void {
  if (agentSupports(agent, provider)) return;
  const entry = AGENT_PROVIDERS[agent];
  const works = entry.providers.map((p) => `${p}/…`).join(', ');
  const others = (Object.keys(AGENT_PROVIDERS) as AgentName[]).filter(
    (a) => a !== agent && agentSupports(a, provider),
  );
  throw new UserError(
    'USAGE',
    `agent ${agent} cannot use ${provider}/${model}: ${agent} speaks ${entry.speaks}` +
      `${entry.note ? ` (${entry.note})` : ''}; models that work with ${agent}: ${works}; ` +
      `agents that can use ${provider} models: ${others.join(', ')}`,
  );
}
