// The scripted fake model server: wire formats checked at the byte level, and multi-turn tool conversations
// driven by the real ai SDK providers (which parse exactly what the vendors send).
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, type LanguageModel, stepCountIs, streamText, tool } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type FakeModelServer,
  type FakeScript,
  startFakeModelServer,
} from '../../support/fake-model-server.js';

const SKILL = 'pdf-invoice-filler';
const withSkill: FakeScript = {
  name: 'with-skill',
  match: (req) => req.system.includes(SKILL) || req.toolNames.includes('skill'),
  turns: [
    { text: 'Loading the skill.', toolCalls: [{ name: 'skill', input: { skill: SKILL } }] },
    { toolCalls: [{ name: 'shell', input: { command: 'python fill.py invoice.json' } }] },
    { text: 'Filled the invoice.' },
  ],
};
const noSkill: FakeScript = {
  name: 'no-skill',
  turns: [{ toolCalls: [{ name: 'shell', input: { command: 'ls' } }] }, { text: 'I could not fill it.' }],
};

let server: FakeModelServer;

beforeAll(async () => {
  server = await startFakeModelServer({
    scripts: [withSkill, noSkill],
    usage: { input: 500, cached: 100, output: 40 },
  });
});
afterEach(() => server.reset());
afterAll(() => server.close());

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer secret-key', ...headers },
    body: JSON.stringify(body),
  });
}

// biome-ignore lint/suspicious/noExplicitAny: wire JSON is inspected field by field.
async function json(res: Response): Promise<any> {
  return res.json();
}

/** Parses an SSE body into [event name or null, data] pairs. */
async function events(res: Response): Promise<[string | null, string][]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? null;
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '';
      return [event, data];
    });
}

describe('Anthropic Messages', () => {
  const tools = [{ name: 'skill', description: 'load a skill', input_schema: { type: 'object' } }];

  it('answers JSON with the scripted turn chosen by the assistant turns in the request', async () => {
    const first = await post('/v1/messages', {
      model: 'claude-x',
      max_tokens: 100,
      system: `Skills available: ${SKILL}`,
      tools,
      messages: [{ role: 'user', content: 'fill the invoice' }],
    });
    const body = await json(first);
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'Loading the skill.' },
        { type: 'tool_use', name: 'skill', input: { skill: SKILL } },
      ],
      usage: { input_tokens: 400, cache_read_input_tokens: 100, output_tokens: 40 },
    });
    const second = await post('/v1/messages', {
      model: 'claude-x',
      max_tokens: 100,
      system: `Skills available: ${SKILL}`,
      tools,
      messages: [
        { role: 'user', content: 'fill the invoice' },
        { role: 'assistant', content: body.content },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: body.content[1].id, content: 'loaded' }],
        },
      ],
    });
    expect((await json(second)).content[0]).toMatchObject({ type: 'tool_use', name: 'shell' });
    expect(server.requests.map((r) => [r.script, r.turn])).toEqual([
      ['with-skill', 0],
      ['with-skill', 1],
    ]);
  });

  it('streams the documented event sequence with text and input_json deltas', async () => {
    const res = await post('/v1/messages', {
      model: 'claude-x',
      max_tokens: 100,
      stream: true,
      system: SKILL,
      tools,
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const list = await events(res);
    const names = list.map(([e]) => e);
    expect(names[0]).toBe('message_start');
    expect(names.at(-2)).toBe('message_delta');
    expect(names.at(-1)).toBe('message_stop');
    for (const [name, data] of list) expect(JSON.parse(data).type).toBe(name);
    const deltas = list.filter(([e]) => e === 'content_block_delta').map(([, d]) => JSON.parse(d).delta);
    expect(
      deltas
        .filter((d) => d.type === 'text_delta')
        .map((d) => d.text)
        .join(''),
    ).toBe('Loading the skill.');
    const json = deltas.filter((d) => d.type === 'input_json_delta').map((d) => d.partial_json);
    expect(json.length).toBeGreaterThan(1);
    expect(JSON.parse(json.join(''))).toEqual({ skill: SKILL });
    const messageDelta = JSON.parse(list.at(-2)?.[1] ?? '{}');
    expect(messageDelta).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 40 } });
  });

  it('counts tokens', async () => {
    const res = await post('/v1/messages/count_tokens', {
      model: 'm',
      messages: [{ role: 'user', content: 'x'.repeat(400) }],
    });
    const body = await json(res);
    expect(body.input_tokens).toBeGreaterThan(100);
  });

  it('answers tool-less side requests with "ok" and logs them as such', async () => {
    const res = await post('/v1/messages', {
      model: 'claude-x',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'Write a 5-word title for this conversation' }],
    });
    expect((await json(res)).content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.requests[0]?.script).toBeNull();
  });
});

describe('OpenAI Responses', () => {
  const tools = [{ type: 'function', name: 'shell', parameters: { type: 'object' } }];

  it('streams created, output items, deltas and completed with cached-token usage', async () => {
    const res = await post('/v1/responses', {
      model: 'gpt-x',
      stream: true,
      instructions: 'You are an agent.',
      tools,
      input: [{ role: 'user', content: 'go' }],
    });
    const list = await events(res);
    const names = list.map(([e]) => e);
    expect(names[0]).toBe('response.created');
    expect(names).toContain('response.output_item.added');
    expect(names).toContain('response.function_call_arguments.delta');
    expect(names).toContain('response.output_item.done');
    expect(names.at(-1)).toBe('response.completed');
    const data = list.map(([, d]) => JSON.parse(d));
    expect(data.map((d) => d.sequence_number)).toEqual(data.map((_, i) => i));
    const args = data.filter((d) => d.type === 'response.function_call_arguments.delta').map((d) => d.delta);
    expect(JSON.parse(args.join(''))).toEqual({ command: 'ls' });
    expect(data.at(-1).response.usage).toMatchObject({
      input_tokens: 500,
      input_tokens_details: { cached_tokens: 100 },
      output_tokens: 40,
    });
    expect(server.requests[0]?.script).toBe('no-skill');
  });

  it('counts function_call items and tool outputs as turns, and answers JSON', async () => {
    const res = await post('/v1/responses', {
      model: 'gpt-x',
      tools,
      input: [
        { role: 'user', content: 'go' },
        { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"command":"ls"}' },
        { type: 'function_call_output', call_id: 'c1', output: 'invoice.json' },
      ],
    });
    const body = await json(res);
    expect(body).toMatchObject({ object: 'response', status: 'completed' });
    expect(body.output[0]).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'I could not fill it.' }],
    });
    expect(server.requests[0]?.turn).toBe(1);
  });
});

describe('Chat Completions', () => {
  const tools = [{ type: 'function', function: { name: 'shell', parameters: { type: 'object' } } }];

  it('streams tool_calls deltas, a usage chunk and [DONE]', async () => {
    const res = await post('/v1/chat/completions', {
      model: 'qwen3',
      stream: true,
      stream_options: { include_usage: true },
      tools,
      messages: [{ role: 'user', content: 'go' }],
    });
    const list = await events(res);
    expect(list.every(([e]) => e === null)).toBe(true);
    expect(list.at(-1)?.[1]).toBe('[DONE]');
    const chunks = list.slice(0, -1).map(([, d]) => JSON.parse(d));
    const calls = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'shell' } });
    expect(JSON.parse(calls.map((c) => c.function.arguments).join(''))).toEqual({ command: 'ls' });
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 500, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 100 } },
    });
  });

  it('answers json_schema response formats with the scripted JSON', async () => {
    server.setScripts([{ name: 'judge', turns: [{ json: { pass: true } }] }]);
    try {
      const res = await post('/v1/chat/completions', {
        model: 'qwen3',
        messages: [{ role: 'user', content: 'judge' }],
        response_format: { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object' } } },
      });
      const body = await json(res);
      expect(JSON.parse(body.choices[0].message.content)).toEqual({ pass: true });
    } finally {
      server.setScripts([withSkill, noSkill]);
    }
  });
});

describe('log and faults', () => {
  it('logs path, parsed body and headers without credentials', async () => {
    await post('/v1/messages', { model: 'm', max_tokens: 1, messages: [] }, { 'x-api-key': 'sk-ant-secret' });
    const [entry] = server.requests;
    expect(entry).toMatchObject({ method: 'POST', path: '/v1/messages', protocol: 'anthropic', status: 200 });
    expect(entry?.body).toMatchObject({ model: 'm' });
    expect(entry?.headers['content-type']).toBe('application/json');
    expect(JSON.stringify(entry?.headers)).not.toMatch(/secret/);
  });

  it('injects errors in the protocol error shape with retry-after, then recovers', async () => {
    server.inject({ status: 429, retryAfter: '2', path: '/v1/messages' });
    const limited = await post('/v1/messages', { model: 'm', max_tokens: 1, messages: [] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(await json(limited)).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'injected 429' },
    });
    const ok = await post('/v1/messages', { model: 'm', max_tokens: 1, messages: [] });
    expect(ok.status).toBe(200);
  });

  it('answers unknown routes with 404', async () => {
    expect((await post('/v1/embeddings', {})).status).toBe(404);
  });
});

// The real SDKs run a multi-step tool loop: each step's request carries the previous tool calls and results,
// so the reply must advance through the script. This is how agents (and the built-in agent) talk to it.
describe.each([
  ['anthropic', (url: string) => createAnthropic({ apiKey: 'k', baseURL: url })('claude-sonnet-4-6')],
  ['openai responses', (url: string) => createOpenAI({ apiKey: 'k', baseURL: url }).responses('gpt-5-mini')],
  ['openai chat', (url: string) => createOpenAI({ apiKey: 'k', baseURL: url }).chat('gpt-4.1')],
  [
    'openai-compatible',
    (url: string) => createOpenAICompatible({ name: 'local', baseURL: url, includeUsage: true })('qwen3'),
  ],
] as [string, (url: string) => LanguageModel][])('%s tool loop through the ai SDK', (_name, make) => {
  const calls: string[] = [];
  const tools = {
    skill: tool({
      description: 'Load a skill by name',
      inputSchema: z.object({ skill: z.string() }),
      execute: async ({ skill }) => {
        calls.push(`skill:${skill}`);
        return `loaded ${skill}`;
      },
    }),
    shell: tool({
      description: 'Run a shell command',
      inputSchema: z.object({ command: z.string() }),
      execute: async ({ command }) => {
        calls.push(`shell:${command}`);
        return 'ok';
      },
    }),
  };

  for (const stream of [false, true]) {
    it(`follows the with-skill script to the end (${stream ? 'SSE' : 'JSON'})`, async () => {
      calls.length = 0;
      const options = {
        model: make(server.baseUrl),
        system: `Available skills: ${SKILL}`,
        prompt: 'Fill invoice.json',
        tools,
        stopWhen: stepCountIs(5),
        maxRetries: 0,
      };
      let text: string;
      let inputTokens: number | undefined;
      if (stream) {
        const r = streamText(options);
        text = await r.text;
        inputTokens = (await r.totalUsage).inputTokens;
      } else {
        const r = await generateText(options);
        text = r.text;
        inputTokens = r.totalUsage.inputTokens;
      }
      expect(calls).toEqual([`skill:${SKILL}`, 'shell:python fill.py invoice.json']);
      expect(text).toBe('Filled the invoice.');
      expect(inputTokens).toBe(1500);
      expect(server.requests.map((r) => r.turn)).toEqual([0, 1, 2]);
      expect(server.requests.every((r) => r.script === 'with-skill' && r.stream === stream)).toBe(true);
    });
  }

  it('chooses the no-skill script when the skill is not in the request', async () => {
    calls.length = 0;
    const r = await generateText({
      model: make(server.baseUrl),
      prompt: 'Fill invoice.json',
      tools: { shell: tools.shell },
      stopWhen: stepCountIs(5),
      maxRetries: 0,
    });
    expect(r.text).toBe('I could not fill it.');
    expect(calls).toEqual(['shell:ls']);
    expect(server.requests.map((q) => q.script)).toEqual(['no-skill', 'no-skill']);
    expect(server.requests.some((q) => JSON.stringify(q.body).includes(SKILL))).toBe(false);
  });
});

describe('usage and latency settings', () => {
  it('lets a turn override usage and delays replies and stream events', async () => {
    const slow = await startFakeModelServer({
      latencyMs: 150,
      chunkDelayMs: 5,
      usage: { input: 10, cached: 0, output: 1 },
      scripts: [
        { name: 's', answersToolless: true, turns: [{ text: 'a'.repeat(60), usage: { output: 99 } }] },
      ],
    });
    try {
      const started = Date.now();
      const res = await fetch(`${slow.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'm',
          stream: true,
          stream_options: { include_usage: true },
          messages: [{ role: 'user', content: 'x' }],
        }),
      });
      const list = await events(res);
      // 150 ms before the reply, then 5 ms after each of the ten events.
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      const usage = JSON.parse(list.at(-2)?.[1] ?? '{}').usage;
      expect(usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 99 });
    } finally {
      await slow.close();
    }
  });
});
