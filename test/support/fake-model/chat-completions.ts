// OpenAI Chat Completions (POST /v1/chat/completions), also spoken by Ollama, vLLM and llama.cpp:
// request reading, the JSON completion and the SSE chunks (tool_calls deltas, a usage chunk, [DONE]).
import { countTurns, pieces, type SseEvent, sse, textOf } from './sse.js';
import type { FakeRequestView, Reply } from './types.js';

// biome-ignore lint/suspicious/noExplicitAny: parsed wire JSON.
type Body = any;

export function chatView(body: Body): Omit<FakeRequestView, 'protocol' | 'body' | 'raw'> {
  const messages: Body[] = Array.isArray(body.messages) ? body.messages : [];
  const system = messages
    .filter((m) => m?.role === 'system' || m?.role === 'developer')
    .map((m) => textOf(m.content))
    .join('\n');
  const tools: Body[] = Array.isArray(body.tools) ? body.tools : [];
  const format = body.response_format?.type;
  let structured: FakeRequestView['structured'] = null;
  if (format === 'json_schema' || format === 'json_object') structured = { tool: null };
  else if (body.tool_choice?.type === 'function' && typeof body.tool_choice.function?.name === 'string') {
    structured = { tool: body.tool_choice.function.name };
  }
  return {
    system,
    toolNames: tools.map((t) => String(t?.function?.name ?? '')),
    assistantTurns: countTurns(messages, (m) => (m as Body)?.role === 'assistant'),
    structured,
  };
}

function usageOf(reply: Reply) {
  return {
    prompt_tokens: reply.usage.input,
    completion_tokens: reply.usage.output,
    total_tokens: reply.usage.input + reply.usage.output,
    prompt_tokens_details: { cached_tokens: reply.usage.cached },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

function finishReason(reply: Reply): string {
  return reply.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

export function chatJson(reply: Reply): unknown {
  const message: Record<string, unknown> = { role: 'assistant', content: reply.text, refusal: null };
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return {
    id: `chatcmpl-${reply.id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(reply) }],
    usage: usageOf(reply),
  };
}

export function chatStream(reply: Reply, body: Body): SseEvent[] {
  const base = {
    id: `chatcmpl-${reply.id}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
  };
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse(undefined, { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const events: SseEvent[] = [chunk({ role: 'assistant', content: '' })];
  if (reply.text !== null) for (const content of pieces(reply.text)) events.push(chunk({ content }));
  reply.toolCalls.forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const args of pieces(call.arguments)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: args } }] }));
    }
  });
  events.push(chunk({}, finishReason(reply)));
  if (body.stream_options?.include_usage)
    events.push(sse(undefined, { ...base, choices: [], usage: usageOf(reply) }));
  events.push(sse(undefined, '[DONE]'));
  return events;
}
