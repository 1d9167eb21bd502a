import {
  type CallWarning,
  generateText,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  NoObjectGeneratedError,
  Output,
  streamText,
} from 'ai';
import { z } from 'zod';
import { ResponseCache } from '../store/cache.js';
import { UserError } from '../util/errors.js';
import type { ModelSettings } from './config.js';
import { ModelCallError } from './errors.js';
import { costOf, type Price, priceOf } from './prices.js';
import { languageModelFor } from './providers.js';
import { requestKey } from './request-key.js';
import { DEFAULT_RETRY, type RetryPolicy, withRetries } from './retry.js';
import { formatModelSpec, type ModelSpec } from './spec.js';
import { emptyUsage, type Usage, UsageLedger } from './usage.js';

export interface ModelRequest {
  /** Ledger bucket for token accounting, e.g. `scan.review`, `schemes`, `judge`. */
  stage: string;
  system?: string;
  /** A single user message; use `messages` for a conversation. */
  prompt?: string;
  messages?: ModelMessage[];
  temperature?: number;
  maxOutputTokens?: number;
  /** Use the provider's streaming (SSE) transport; the result is the same. */
  stream?: boolean;
  abortSignal?: AbortSignal;
}

export interface ObjectRequest<T> extends ModelRequest {
  schema: z.ZodType<T>;
  /** Shown to the model as the output's name and purpose. */
  schemaName?: string;
  schemaDescription?: string;
}

export interface TextResult {
  text: string;
  finishReason: string;
  /** This call's usage (zero tokens and `cacheHits: 1` when answered from the cache). */
  usage: Usage;
  fromCache: boolean;
}

export interface ObjectResult<T> {
  object: T;
  usage: Usage;
  fromCache: boolean;
}

export interface ModelClient {
  readonly spec: ModelSpec;
  /** Shared accounting and cap; `ledger.byStage()` for reports. */
  readonly ledger: UsageLedger;
  /** Null when the model's price is unknown. */
  readonly price: Price | null;
  /** Provider warnings seen so far (e.g. a setting the model ignores), each once; for reports. */
  readonly warnings: readonly string[];
  /** The ai SDK model, for callers that run their own tool loop (they account with `recordUsage`). */
  readonly languageModel: LanguageModel;
  generateText(request: ModelRequest): Promise<TextResult>;
  generateObject<T>(request: ObjectRequest<T>): Promise<ObjectResult<T>>;
  /** Throws BudgetExceeded when the cap leaves no room for a call with this many prompt tokens. */
  checkBudget(promptTokens: number, wanted: string): void;
  /** Converts and records usage reported by the ai SDK for a call made outside this client. */
  recordUsage(stage: string, usage: LanguageModelUsage): Usage;
  /** Closes the response cache. */
  close(): void;
}

export interface ModelClientOptions {
  /** Share one ledger between clients so a cap covers all of them; its cap then replaces `settings.maxCost`. */
  ledger?: UsageLedger;
  retry?: Partial<RetryPolicy>;
}

interface CachedValue {
  text: string;
  finishReason: string;
  object?: unknown;
}

// Responses worth replaying: complete answers, not errors or provider-specific stops.
const CACHEABLE_FINISH = new Set(['stop', 'length', 'tool-calls']);

/** Builds a client for resolved settings (see resolveModelSettings). Throws UserError on unusable settings. */
export function createModelClient(settings: ModelSettings, options: ModelClientOptions = {}): ModelClient {
  const spec = settings.spec;
  const name = formatModelSpec(spec);
  const price = priceOf(spec, settings.prices);
  const ledger = options.ledger ?? new UsageLedger(settings.maxCost);
  if (ledger.cap && 'dollars' in ledger.cap && price === null) {
    throw new UserError(
      'USAGE',
      `no price is known for ${name}, so a dollar cap cannot be enforced: use --max-cost tokens:N, ` +
        `or add "prices": {"${name}": {"input": .., "cachedInput": .., "output": ..}} (dollars per million ` +
        'tokens) to the config file',
    );
  }
  const languageModel = languageModelFor(settings);
  const policy: RetryPolicy = { ...DEFAULT_RETRY, timeoutMs: settings.timeoutMs, ...options.retry };
  const cache = settings.useCache ? ResponseCache.open(settings.cacheDir) : null;
  const warnings: string[] = [];
  // Warnings are collected on the client for reports instead of being printed over the CLI's output.
  globalThis.AI_SDK_LOG_WARNINGS = false;

  function toUsage(sdk: LanguageModelUsage): Usage {
    const tokens = {
      input: sdk.inputTokens ?? 0,
      cached: sdk.inputTokenDetails?.cacheReadTokens ?? sdk.cachedInputTokens ?? 0,
      output: sdk.outputTokens ?? 0,
    };
    return {
      ...emptyUsage(),
      ...tokens,
      calls: 1,
      cost: price ? costOf(price, tokens) : 0,
      unpricedCalls: price ? 0 : 1,
    };
  }

  const estimate = (promptTokens: number) => ({
    tokens: promptTokens,
    cost: price ? (promptTokens * price.input) / 1_000_000 : 0,
  });

  function checkBudget(promptTokens: number, wanted: string): void {
    ledger.check(estimate(promptTokens), wanted);
  }

  function noteWarnings(list: CallWarning[] | undefined): void {
    for (const w of list ?? []) {
      const text = w.type === 'other' ? w.message : `${w.feature}: ${w.details ?? 'not supported'}`;
      if (!warnings.includes(text)) warnings.push(text);
    }
  }

  async function run(
    request: ModelRequest,
    schema: ObjectRequest<unknown> | null,
  ): Promise<TextResult & { object?: unknown }> {
    const messages: ModelMessage[] = request.messages ?? [{ role: 'user', content: request.prompt ?? '' }];
    const jsonSchema = schema ? z.toJSONSchema(schema.schema) : undefined;
    const key = requestKey({
      v: 1,
      provider: spec.provider,
      model: spec.model,
      // A local server's model name says nothing about which weights answer, so its endpoint is part of the key.
      endpoint: spec.provider === 'openai-compatible' ? settings.baseUrl : undefined,
      system: request.system,
      messages,
      schema: jsonSchema,
      schemaName: schema?.schemaName,
      schemaDescription: schema?.schemaDescription,
      temperature: request.temperature,
      maxOutputTokens: request.maxOutputTokens,
    });

    const hit = cache ? readCached(cache.get(key), schema) : null;
    if (hit) {
      const usage = { ...emptyUsage(), cacheHits: 1 };
      ledger.record(request.stage, usage);
      return { text: hit.text, finishReason: hit.finishReason, object: hit.object, usage, fromCache: true };
    }

    const promptChars =
      (request.system?.length ?? 0) +
      JSON.stringify(messages).length +
      JSON.stringify(jsonSchema ?? '').length;
    const release = ledger.reserve(
      estimate(Math.ceil(promptChars / 4)),
      `a ${request.stage} call to ${name}`,
    );

    const output = schema
      ? Output.object({
          schema: schema.schema,
          name: schema.schemaName,
          description: schema.schemaDescription,
        })
      : undefined;
    const call = {
      model: languageModel,
      system: request.system,
      messages,
      temperature: request.temperature,
      maxOutputTokens: request.maxOutputTokens,
      maxRetries: 0,
    };
    const attempt = async (abortSignal: AbortSignal) => {
      if (!request.stream) {
        const r = await generateText({ ...call, abortSignal, ...(output ? { output } : {}) });
        noteWarnings(r.warnings);
        return {
          text: r.text,
          finishReason: r.finishReason,
          sdkUsage: r.usage,
          object: output ? r.output : undefined,
        };
      }
      let streamError: unknown;
      const r = streamText({
        ...call,
        abortSignal,
        ...(output ? { output } : {}),
        onError: ({ error }) => {
          streamError ??= error;
        },
      });
      // Consuming the text drives the stream; errors arrive through onError rather than as rejections.
      const text = await Promise.resolve(r.text).catch((error: unknown) => {
        throw streamError ?? error;
      });
      if (streamError) throw streamError;
      const object = output ? await r.output : undefined;
      noteWarnings(await r.warnings);
      return { text, finishReason: await r.finishReason, sdkUsage: await r.usage, object };
    };
    let result: Awaited<ReturnType<typeof attempt>>;
    try {
      result = await withRetries(policy, attempt, request.abortSignal);
    } catch (error) {
      release();
      throw unwrapOutputError(error, name);
    }
    const usage = toUsage(result.sdkUsage);
    // Recorded before the reservation is released, so parallel checks never miss this call.
    ledger.record(request.stage, usage);
    release();
    if (cache && CACHEABLE_FINISH.has(result.finishReason)) {
      const value: CachedValue = {
        text: result.text,
        finishReason: result.finishReason,
        object: result.object,
      };
      cache.put(key, { provider: spec.provider, model: spec.model }, value);
    }
    return {
      text: result.text,
      finishReason: result.finishReason,
      object: result.object,
      usage,
      fromCache: false,
    };
  }

  return {
    spec,
    ledger,
    price,
    warnings,
    languageModel,
    async generateText(request) {
      const { object: _ignored, ...result } = await run(request, null);
      return result;
    },
    async generateObject<T>(request: ObjectRequest<T>): Promise<ObjectResult<T>> {
      const result = await run(request, request as ObjectRequest<unknown>);
      return { object: result.object as T, usage: result.usage, fromCache: result.fromCache };
    },
    checkBudget,
    recordUsage(stage, sdkUsage) {
      const usage = toUsage(sdkUsage);
      ledger.record(stage, usage);
      return usage;
    },
    close() {
      cache?.close();
    },
  };
}

/** A cached value, re-validated against today's schema; anything unusable is a miss. */
function readCached(value: unknown, schema: ObjectRequest<unknown> | null): CachedValue | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Partial<CachedValue>;
  if (typeof v.text !== 'string' || typeof v.finishReason !== 'string') return null;
  if (!schema) return { text: v.text, finishReason: v.finishReason };
  const parsed = schema.schema.safeParse(v.object);
  return parsed.success ? { text: v.text, finishReason: v.finishReason, object: parsed.data } : null;
}

/** Structured output the model got wrong is reported plainly, with what it said. */
function unwrapOutputError(error: unknown, name: string): unknown {
  const inner = error instanceof ModelCallError && error.kind === 'output' ? error.cause : error;
  if (NoObjectGeneratedError.isInstance(inner)) {
    const said = (inner.text ?? '').slice(0, 200);
    return new ModelCallError(
      'output',
      `${name} did not return the requested JSON: ${said}`,
      1,
      undefined,
      inner,
    );
  }
  return error;
}
