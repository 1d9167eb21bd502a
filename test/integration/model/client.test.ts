// ModelClient end to end: the real ai SDK providers over real HTTP against the scripted fake model server.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BudgetExceeded,
  createModelClient,
  ModelCallError,
  type ModelClient,
  type ModelFlags,
  type ProviderId,
  type RetryPolicy,
  resolveModelSettings,
} from '../../../src/model/index.js';
import { UserError } from '../../../src/util/errors.js';
import { useFakeModel } from '../../support/fake-model-clients.js';

const MODELS: Record<ProviderId, string> = {
  anthropic: 'anthropic/claude-sonnet-4-6',
  openai: 'openai/gpt-5-mini',
  'openai-chat': 'openai-chat/gpt-4.1-mini',
  'openai-compatible': 'openai-compatible/qwen3',
};
const PATHS: Record<ProviderId, string> = {
  anthropic: '/v1/messages',
  openai: '/v1/responses',
  'openai-chat': '/v1/chat/completions',
  'openai-compatible': '/v1/chat/completions',
};
const verdictSchema = z.object({ verdict: z.enum(['safe', 'risky']), reasons: z.array(z.string()) });
const REPLY_TEXT = 'The skill formats invoices; nothing in it reaches the network.';
const REPLY_JSON = { verdict: 'risky', reasons: ['reads ~/.aws/credentials', 'posts to a paste site'] };

const fake = useFakeModel('model-test', {
  usage: { input: 1200, cached: 200, output: 80 },
  scripts: [{ name: 'reviewer', answersToolless: true, turns: [{ text: REPLY_TEXT, json: REPLY_JSON }] }],
});

function client(
  provider: ProviderId,
  flags: ModelFlags = {},
  retry: Partial<RetryPolicy> = { maxRetries: 0 },
): ModelClient {
  return fake.client(MODELS[provider], flags, retry);
}

describe.each(Object.keys(MODELS) as ProviderId[])('%s over HTTP', (provider) => {
  for (const stream of [false, true]) {
    const mode = stream ? 'SSE' : 'JSON';

    it(`generates text (${mode}) and accounts tokens`, async () => {
      const c = client(provider);
      const result = await c.generateText({
        stage: 'judge',
        system: 'Be brief.',
        prompt: 'Summarise.',
        stream,
      });
      expect(result.text).toBe(REPLY_TEXT);
      expect(result.fromCache).toBe(false);
      expect(result.usage).toMatchObject({ input: 1200, cached: 200, output: 80, calls: 1 });
      expect(c.ledger.byStage().judge).toMatchObject({ input: 1200, cached: 200, output: 80, calls: 1 });
      expect(fake.server.requests).toHaveLength(1);
      const [req] = fake.server.requests;
      expect(req?.path).toBe(PATHS[provider]);
      expect(req?.stream).toBe(stream);
      expect(JSON.stringify(req?.body)).toContain('Summarise.');
      // Keys travel in headers the log never keeps.
      expect(JSON.stringify(req?.headers)).not.toContain('test-');
    });

    it(`returns structured output validated by the zod schema (${mode})`, async () => {
      const c = client(provider);
      const result = await c.generateObject({
        stage: 'scan.review',
        prompt: 'Review.',
        schema: verdictSchema,
        stream,
      });
      expect(result.object).toEqual(REPLY_JSON);
      const body = fake.server.requests[0]?.body;
      const asked =
        provider === 'anthropic'
          ? (body.output_config?.format ?? body.tool_choice)
          : provider === 'openai'
            ? body.text?.format
            : body.response_format;
      expect(asked).toBeTruthy();
      expect(JSON.stringify(asked)).toMatch(/json_schema|"name":"json"/);
    });
  }
});

describe('pricing and usage', () => {
  it('prices a known model from the table: fresh input, cached input and output', async () => {
    const c = client('anthropic');
    const { usage } = await c.generateText({ stage: 'a', prompt: 'x' });
    // claude-sonnet-4-*: $3 fresh input, $0.30 cached, $15 output per million tokens.
    expect(usage.cost).toBeCloseTo((1000 * 3 + 200 * 0.3 + 80 * 15) / 1e6, 10);
    expect(usage.unpricedCalls).toBe(0);
  });

  it('sums usage per stage and in total across calls', async () => {
    const c = client('openai');
    await c.generateText({ stage: 'schemes', prompt: 'a' });
    await c.generateText({ stage: 'schemes', prompt: 'b' });
    await c.generateText({ stage: 'judge', prompt: 'c' });
    const stages = c.ledger.byStage();
    expect(stages.schemes).toMatchObject({ input: 2400, cached: 400, output: 160, calls: 2 });
    expect(stages.judge).toMatchObject({ input: 1200, calls: 1 });
    expect(c.ledger.total()).toMatchObject({ input: 3600, cached: 600, output: 240, calls: 3 });
  });
});

describe('retries', () => {
  it('retries 429 and 503, honouring retry-after, then succeeds', async () => {
    const c = client('anthropic', {}, { maxRetries: 3 });
    fake.server.inject({ status: 429, retryAfter: '1' });
    fake.server.inject({ status: 503, retryAfter: '0' });
    const started = Date.now();
    const result = await c.generateText({ stage: 'judge', prompt: 'x' });
    const elapsed = Date.now() - started;
    expect(result.text).toBe(REPLY_TEXT);
    expect(fake.server.requests.map((r) => r.status)).toEqual([429, 503, 200]);
    // The 429 asked for one second; backoff alone (10 ms base) would have been far shorter.
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(c.ledger.total().calls).toBe(1);
  });

  it('retries server errors over SSE too (OpenAI Responses)', async () => {
    const c = client('openai', {}, { maxRetries: 2 });
    fake.server.inject({ status: 500, times: 2 });
    const result = await c.generateText({ stage: 'judge', prompt: 'x', stream: true });
    expect(result.text).toBe(REPLY_TEXT);
    expect(fake.server.requests.map((r) => r.status)).toEqual([500, 500, 200]);
  });

  it('gives up after maxRetries with the status in the error', async () => {
    const c = client('openai-chat', {}, { maxRetries: 1 });
    fake.server.inject({ status: 429, times: 5, retryAfter: '0' });
    const error = await c.generateText({ stage: 'judge', prompt: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ kind: 'http', status: 429, attempts: 2 });
    expect(fake.server.requests).toHaveLength(2);
    expect(c.ledger.total().calls).toBe(0);
  });

  it('does not wait when the server asks for longer than the retry limit', async () => {
    const c = client('anthropic', {}, { maxRetries: 3, maxDelayMs: 2000 });
    fake.server.inject({ status: 429, retryAfter: '3600' });
    const started = Date.now();
    const error = await c.generateText({ stage: 'judge', prompt: 'x' }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1500);
    expect((error as Error).message).toMatch(/retry after 3600 s/);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('never retries a client error such as 400', async () => {
    const c = client('anthropic', {}, { maxRetries: 3 });
    fake.server.inject({ status: 400 });
    const error = await c.generateText({ stage: 'judge', prompt: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http', status: 400, attempts: 1 });
    expect(fake.server.requests).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('aborts an attempt that takes longer than the timeout', async () => {
    const c = client('anthropic', {}, { maxRetries: 0, timeoutMs: 200 });
    fake.server.inject({ delayMs: 1500 });
    const started = Date.now();
    const error = await c.generateText({ stage: 'judge', prompt: 'x' }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1200);
    expect(error).toMatchObject({ kind: 'timeout', attempts: 1 });
  });

  it('retries after a timeout and succeeds when the server recovers (SSE)', async () => {
    const c = client('openai', {}, { maxRetries: 1, timeoutMs: 300 });
    fake.server.inject({ delayMs: 1500 });
    const result = await c.generateText({ stage: 'judge', prompt: 'x', stream: true });
    expect(result.text).toBe(REPLY_TEXT);
    expect(fake.server.requests).toHaveLength(2);
  });
});

describe('cost cap', () => {
  it('stops before the call that a token cap cannot afford, having sent nothing for it', async () => {
    // Each reply uses 1280 tokens: with a cap of 2000 the second call still starts under it (and ends over),
    // the third is refused before anything is sent.
    const c = client('openai-compatible', { maxCost: 'tokens:2000' });
    await c.generateText({ stage: 'schemes', prompt: 'first' });
    await c.generateText({ stage: 'schemes', prompt: 'second' });
    const error = await c.generateText({ stage: 'judge', prompt: 'third' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetExceeded);
    expect((error as BudgetExceeded).message).toMatch(/2000 tokens.*judge/);
    expect((error as BudgetExceeded).spent).toMatchObject({ input: 2400, output: 160 });
    expect(fake.server.requests).toHaveLength(2);
  });

  it('stops on a dollar cap priced from the table', async () => {
    // One call to claude-sonnet-4-6 here costs $0.00426; a cap of $0.0043 allows one, not a second.
    const c = client('anthropic', { maxCost: '0.0043' });
    await c.generateObject({ stage: 'scan.review', prompt: 'a', schema: verdictSchema });
    await expect(
      c.generateObject({ stage: 'scan.review', prompt: 'b', schema: verdictSchema }),
    ).rejects.toThrow(BudgetExceeded);
    expect(fake.server.requests).toHaveLength(1);
    expect(c.ledger.total().cost).toBeCloseTo(0.00426, 6);
  });

  it('counts calls in flight, so parallel calls cannot all slip under the cap', async () => {
    const c = client('anthropic', { maxCost: 'tokens:700' });
    const prompt = 'x'.repeat(1600); // estimated at about 400 prompt tokens each
    const results = await Promise.allSettled([
      c.generateText({ stage: 'judge', prompt }),
      c.generateText({ stage: 'judge', prompt: `${prompt}y` }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')?.reason).toBeInstanceOf(BudgetExceeded);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('refuses a dollar cap for a model without a known price', () => {
    expect(() => client('openai-compatible', { maxCost: '1.00' })).toThrow(/no price is known/);
  });
});

describe('response cache', () => {
  it('answers a re-run from SQLite with zero HTTP requests and identical results', async () => {
    const cacheDir = join(fake.dir, 'cache-rerun');
    const run = async () => {
      const c = client('anthropic', { cache: true, cacheDir });
      const text = await c.generateText({ stage: 'judge', system: 's', prompt: 'p', temperature: 0 });
      const object = await c.generateObject({
        stage: 'scan.review',
        prompt: 'p',
        schema: verdictSchema,
        stream: true,
      });
      c.close();
      return { text, object, total: c.ledger.total() };
    };
    const first = await run();
    expect(fake.server.requests).toHaveLength(2);
    const second = await run();
    expect(fake.server.requests).toHaveLength(2);
    expect(second.text.text).toBe(first.text.text);
    expect(second.object.object).toEqual(first.object.object);
    expect(second.text.fromCache).toBe(true);
    expect(second.total).toMatchObject({ calls: 0, cacheHits: 2, input: 0, output: 0, cost: 0 });
  });

  it('misses when anything that decides the answer differs', async () => {
    const cacheDir = join(fake.dir, 'cache-miss');
    const c = client('openai', { cache: true, cacheDir });
    await c.generateText({ stage: 'judge', prompt: 'p' });
    await c.generateText({ stage: 'judge', prompt: 'p', temperature: 0.7 });
    await c.generateText({ stage: 'judge', prompt: 'p', system: 'other' });
    await c.generateObject({ stage: 'judge', prompt: 'p', schema: verdictSchema });
    expect(fake.server.requests).toHaveLength(4);
    await c.generateText({ stage: 'other-stage', prompt: 'p', stream: true });
    expect(fake.server.requests).toHaveLength(4);
  });

  it('bypasses the cache with --no-cache', async () => {
    const cacheDir = join(fake.dir, 'cache-bypass');
    await client('anthropic', { cache: true, cacheDir }).generateText({ stage: 'judge', prompt: 'p' });
    await client('anthropic', { cache: false, cacheDir }).generateText({ stage: 'judge', prompt: 'p' });
    expect(fake.server.requests).toHaveLength(2);
  });

  it('does not cache failures', async () => {
    const cacheDir = join(fake.dir, 'cache-failure');
    fake.server.inject({ status: 400 });
    const c = client('anthropic', { cache: true, cacheDir });
    await expect(c.generateText({ stage: 'judge', prompt: 'p' })).rejects.toThrow(ModelCallError);
    const result = await c.generateText({ stage: 'judge', prompt: 'p' });
    expect(result.fromCache).toBe(false);
    expect(fake.server.requests).toHaveLength(2);
  });
});

describe('provider warnings', () => {
  it('collects what the model ignores on the client instead of printing it', async () => {
    const c = client('openai');
    await c.generateText({ stage: 'judge', prompt: 'p', temperature: 0 });
    await c.generateText({ stage: 'judge', prompt: 'q', temperature: 0 });
    expect(c.warnings).toHaveLength(1);
    expect(c.warnings[0]).toMatch(/temperature/);
  });
});

describe('configuration errors', () => {
  it('names the missing API key variable', () => {
    const settings = resolveModelSettings(
      { model: 'anthropic/claude-sonnet-4-6' },
      { env: {}, cwd: fake.dir, home: fake.dir },
    );
    expect(settings).not.toBeNull();
    if (!settings) return;
    expect(() => createModelClient({ ...settings, useCache: false })).toThrow(/ANTHROPIC_API_KEY is not set/);
  });

  it('asks for a base URL for openai-compatible models', () => {
    const settings = resolveModelSettings(
      { model: 'openai-compatible/qwen3' },
      { env: {}, cwd: fake.dir, home: fake.dir },
    );
    expect(() => createModelClient({ ...settings!, useCache: false })).toThrow(UserError);
  });

  it('reports unparsable structured output as an output error, not a crash', async () => {
    fake.server.setScripts([
      { name: 'broken', answersToolless: true, turns: [{ text: 'certainly! {not json' }] },
    ]);
    try {
      const c = client('openai-chat');
      const error = await c
        .generateObject({ stage: 'judge', prompt: 'p', schema: verdictSchema })
        .catch((e) => e);
      expect(error).toBeInstanceOf(ModelCallError);
      expect(error).toMatchObject({ kind: 'output' });
      expect((error as Error).message).toContain('certainly!');
    } finally {
      fake.server.setScripts([
        { name: 'reviewer', answersToolless: true, turns: [{ text: REPLY_TEXT, json: REPLY_JSON }] },
      ]);
    }
  });
});

describe('errors inside a stream', () => {
  it.each(['anthropic', 'openai', 'openai-chat'] as ProviderId[])(
    '%s: retries a transient error that arrives mid-stream',
    async (provider) => {
      const c = client(provider, {}, { maxRetries: 1 });
      fake.server.inject({ midStream: true });
      const result = await c.generateText({ stage: 'judge', prompt: 'x', stream: true });
      expect(result.text).toBe(REPLY_TEXT);
      expect(fake.server.requests).toHaveLength(2);
      expect(c.ledger.total().calls).toBe(1);
    },
  );

  it('reports the stream error when retries are exhausted', async () => {
    const c = client('anthropic', {}, { maxRetries: 0 });
    fake.server.inject({ midStream: true });
    const error = await c
      .generateText({ stage: 'judge', prompt: 'x', stream: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as Error).message).toMatch(/overloaded_error: Overloaded/);
  });

  it('leaves non-streaming requests alone', async () => {
    const c = client('anthropic');
    fake.server.inject({ midStream: true });
    await c.generateText({ stage: 'judge', prompt: 'x' });
    await expect(c.generateText({ stage: 'judge', prompt: 'x', stream: true })).rejects.toThrow(
      ModelCallError,
    );
  });
});
