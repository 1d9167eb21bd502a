// Anthropic Messages API (POST /v1/messages): request reading, JSON replies and the SSE event sequence
// (message_start, content_block_start/delta/stop, message_delta with usage, message_stop).
import { countTurns, pieces, type SseEvent, sse, textOf } from './sse.js';
import type { FakeRequestView, Reply } from './types.js';

// biome-ignore lint/suspicious/noExplicitAny: parsed wire JSON.
type Body = any;

export function anthropicView(body: Body): Omit<FakeRequestView, 'protocol' | 'body' | 'raw'> {
  const messages: Body[] = Array.isArray(body.messages) ? body.messages : [];
  const system = [
    textOf(body.system),
    ...messages.filter((m) => m?.role === 'system').map((m) => textOf(m.content)),
  ]
    .filter(Boolean)
    .join('\n');
  const tools: Body[] = Array.isArray(body.tools) ? body.tools : [];
  const toolNames = tools.map((t) => String(t?.name ?? ''));
  const choice = body.tool_choice;
  let structured: FakeRequestView['structured'] = null;
  if (body.output_config?.format?.type === 'json_schema') structured = { tool: null };
  else if (choice?.type === 'tool' && typeof choice.name === 'string') structured = { tool: choice.name };
  else if (choice?.type === 'any' && toolNames.length === 1) structured = { tool: toolNames[0] ?? null };
  return {
    system,
    toolNames,
    assistantTurns: countTurns(messages, (m) => (m as Body)?.role === 'assistant'),
    structured,
  };
}

function usageOf(reply: Reply) {
  return {
    input_tokens: Math.max(0, reply.usage.input - reply.usage.cached),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: reply.usage.cached,
    output_tokens: reply.usage.output,
  };
}

function stopReason(reply: Reply): string {
  return reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

export function anthropicJson(reply: Reply): unknown {
  const content: unknown[] = [];
  if (reply.text !== null) content.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: JSON.parse(call.arguments) });
  }
  return {
    id: `msg_${reply.id}`,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content,
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: usageOf(reply),
  };
}

export function anthropicStream(reply: Reply): SseEvent[] {
  const usage = usageOf(reply);
  const events: SseEvent[] = [
    sse('message_start', {
      type: 'message_start',
      message: {
        id: `msg_${reply.id}`,
        type: 'message',
        role: 'assistant',
        model: reply.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
    sse('ping', { type: 'ping' }),
  ];
  let index = 0;
  if (reply.text !== null) {
    events.push(
      sse('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      }),
    );
    for (const text of pieces(reply.text)) {
      events.push(
        sse('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text },
        }),
      );
    }
    events.push(sse('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  }
  for (const call of reply.toolCalls) {
    events.push(
      sse('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      }),
    );
    for (const partial_json of pieces(call.arguments)) {
      events.push(
        sse('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json },
        }),
      );
    }
    events.push(sse('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  }
  events.push(
    sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason(reply), stop_sequence: null },
      usage,
    }),
    sse('message_stop', { type: 'message_stop' }),
  );
  return events;
}

/** POST /v1/messages/count_tokens: a rough count (4 characters a token) of what would be sent. */
export function anthropicCountTokens(body: Body): unknown {
  const text = JSON.stringify([body.system ?? '', body.messages ?? [], body.tools ?? []]);
  return { input_tokens: Math.ceil(text.length / 4) };
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

export function anthropicError(status: number, message: string): unknown {
  return { type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } };
}
