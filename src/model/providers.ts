import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { UserError } from '../util/errors.js';
import type { ModelSettings } from './config.js';
import { apiKeyVariable } from './config.js';
import { formatModelSpec } from './spec.js';

/**
 * The ai SDK model for the settings. Base URL and key are always passed explicitly, so the precedence of
 * resolveModelSettings holds even though the SDK packages would read some variables themselves.
 */
export function languageModelFor(
  settings: Pick<ModelSettings, 'spec' | 'baseUrl' | 'apiKey'>,
): LanguageModel {
  const { spec, baseUrl, apiKey } = settings;
  const name = formatModelSpec(spec);
  const requireKey = (): string => {
    if (apiKey) return apiKey;
    throw new UserError('USAGE', `${apiKeyVariable(spec.provider)} is not set (needed for ${name})`);
  };
  switch (spec.provider) {
    case 'anthropic':
      return createAnthropic({ apiKey: requireKey(), baseURL: baseUrl ?? 'https://api.anthropic.com/v1' })(
        spec.model,
      );
    case 'openai':
      return createOpenAI({
        apiKey: requireKey(),
        baseURL: baseUrl ?? 'https://api.openai.com/v1',
      }).responses(spec.model);
    case 'openai-chat':
      return createOpenAI({ apiKey: requireKey(), baseURL: baseUrl ?? 'https://api.openai.com/v1' }).chat(
        spec.model,
      );
    case 'openai-compatible':
      if (!baseUrl) {
        throw new UserError(
          'USAGE',
          `${name} needs a base URL: --base-url, OPENAI_COMPATIBLE_BASE_URL or baseUrl in the config file ` +
            '(e.g. http://localhost:11434/v1 for Ollama)',
        );
      }
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: baseUrl,
        // Local servers usually need no key; send one only when configured.
        ...(apiKey ? { apiKey } : {}),
        includeUsage: true,
        supportsStructuredOutputs: true,
      })(spec.model);
  }
}
