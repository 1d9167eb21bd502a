import { describe, expect, it } from 'vitest';
import { AGENT_PROVIDERS, agentSupports, checkAgentProvider } from '../../../src/agents/compatibility.js';
import type { AgentName } from '../../../src/agents/index.js';
import type { ProviderId } from '../../../src/model/index.js';
import { UserError } from '../../../src/util/errors.js';

// Every agent against every provider: the harness's wire protocol decides, the bridge does not translate.
const EXPECTED: Record<AgentName, Record<ProviderId, boolean>> = {
  builtin: { anthropic: true, openai: true, 'openai-chat': true, 'openai-compatible': true },
  'claude-code': { anthropic: true, openai: false, 'openai-chat': false, 'openai-compatible': false },
  codex: { anthropic: false, openai: true, 'openai-chat': false, 'openai-compatible': true },
  opencode: { anthropic: true, openai: true, 'openai-chat': false, 'openai-compatible': false },
};
const cases = Object.entries(EXPECTED).flatMap(([agent, row]) =>
  Object.entries(row).map(([provider, ok]) => [agent as AgentName, provider as ProviderId, ok] as const),
);

describe('agent / provider compatibility', () => {
  it('covers every agent', () => {
    expect(Object.keys(AGENT_PROVIDERS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(cases)('%s with %s: %s', (agent, provider, ok) => {
    expect(agentSupports(agent, provider)).toBe(ok);
    if (ok) expect(() => checkAgentProvider(agent, provider, 'm')).not.toThrow();
    else expect(() => checkAgentProvider(agent, provider, 'm')).toThrow(UserError);
  });

  it('names the agent, the provider and what works', () => {
    const error = (() => {
      try {
        checkAgentProvider('claude-code', 'openai', 'gpt-5.4');
      } catch (e) {
        return e as UserError;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(UserError);
    expect(error?.code).toBe('USAGE');
    expect(error?.message).toContain('agent claude-code cannot use openai/gpt-5.4');
    expect(error?.message).toContain('Anthropic Messages only');
    expect(error?.message).toContain('models that work with claude-code: anthropic/…;');
    expect(error?.message).toContain('agents that can use openai models: builtin, codex, opencode');
  });

  it('says why opencode refuses an OpenAI-compatible server', () => {
    expect(() => checkAgentProvider('opencode', 'openai-compatible', 'qwen3')).toThrow(
      /fetch its npm package at run time/,
    );
  });
});
