import { UserError } from '../util/errors.js';

/**
 * Which wire API a model is reached through:
 * - `anthropic`: Anthropic Messages;
 * - `openai`: OpenAI Responses API;
 * - `openai-chat`: OpenAI Chat Completions (older deployments, Azure-style gateways);
 * - `openai-compatible`: Chat Completions at a base URL of your own (Ollama, vLLM, llama.cpp server).
 */
export type ProviderId = 'anthropic' | 'openai' | 'openai-chat' | 'openai-compatible';

export interface ModelSpec {
  provider: ProviderId;
  /** The provider's model id, e.g. `claude-sonnet-4-6`, `gpt-5.4`, `qwen3:8b`. */
  model: string;
}

const PROVIDERS: readonly ProviderId[] = ['anthropic', 'openai', 'openai-chat', 'openai-compatible'];

/** Parses `provider/model`; the model part may itself contain slashes (`openai-compatible/Qwen/Qwen3-8B`). */
export function parseModelSpec(text: string): ModelSpec {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const provider = slash > 0 ? trimmed.slice(0, slash) : '';
  const model = slash > 0 ? trimmed.slice(slash + 1).trim() : '';
  if (!PROVIDERS.includes(provider as ProviderId) || model.length === 0) {
    throw new UserError(
      'USAGE',
      `invalid model "${text}": expected provider/model with provider one of ${PROVIDERS.join(', ')} ` +
        '(e.g. anthropic/claude-sonnet-4-6, openai/gpt-5.4, openai-compatible/qwen3)',
    );
  }
  return { provider: provider as ProviderId, model };
}

export function formatModelSpec(spec: ModelSpec): string {
  return `${spec.provider}/${spec.model}`;
}
