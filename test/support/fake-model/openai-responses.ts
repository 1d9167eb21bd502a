// OpenAI Responses API (POST /v1/responses): request reading, the JSON response object and the SSE sequence
// (response.created, output_item.added, output_text.delta, function_call_arguments.delta, output_item.done,
// response.completed with usage).
import { countTurns, pieces, type SseEvent, sse, textOf } from './sse.js';
import type { FakeRequestView, Reply } from './types.js';

// biome-ignore lint/suspicious/noExplicitAny: parsed wire JSON.
type Body = any;

// Items the model produced in earlier turns; tool outputs and user messages separate turns.
const ASSISTANT_ITEMS = new Set([
  'function_call',
  'custom_tool_call',
  'reasoning',
  'local_shell_call',
  'shell_call',
  'apply_patch_call',
  'web_search_call',
  'computer_call',
  'item_reference',
]);

export function responsesView(body: Body): Omit<FakeRequestView, 'protocol' | 'body' | 'raw'> {
  const input: Body[] = Array.isArray(body.input)
    ? body.input
    : typeof body.input === 'string'
      ? [{ role: 'user', content: body.input }]
      : [];
  const system = [
    typeof body.instructions === 'string' ? body.instructions : '',
    ...input.filter((i) => i?.role === 'system' || i?.role === 'developer').map((i) => textOf(i.content)),
  ]
    .filter(Boolean)
    .join('\n');
  const tools: Body[] = Array.isArray(body.tools) ? body.tools : [];
  let structured: FakeRequestView['structured'] = null;
  if (body.text?.format?.type === 'json_schema') structured = { tool: null };
  else if (body.tool_choice?.type === 'function' && typeof body.tool_choice.name === 'string') {
    structured = { tool: body.tool_choice.name };
  }
  return {
    system,
    toolNames: tools.map((t) => String(t?.name ?? t?.type ?? '')),
    assistantTurns: countTurns(
      input,
      (i) => (i as Body)?.role === 'assistant' || ASSISTANT_ITEMS.has((i as Body)?.type),
    ),
    structured,
  };
}

function usageOf(reply: Reply) {
  return {
    input_tokens: reply.usage.input,
    input_tokens_details: { cached_tokens: reply.usage.cached },
    output_tokens: reply.usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: reply.usage.input + reply.usage.output,
  };
}

function messageItem(reply: Reply, text: string, status: string) {
  return {
    id: `msg_${reply.id}`,
    type: 'message',
    status,
    role: 'assistant',
    content: status === 'completed' ? [{ type: 'output_text', text, annotations: [], logprobs: [] }] : [],
  };
}

function callItem(call: Reply['toolCalls'][number], args: string, status: string) {
  return {
    id: `fc_${call.id}`,
    type: 'function_call',
    status,
    call_id: call.id,
    name: call.name,
    arguments: args,
  };
}

function responseObject(reply: Reply, body: Body, status: string, output: unknown[], usage: unknown) {
  return {
    id: `resp_${reply.id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    model: reply.model,
    output,
    parallel_tool_calls: true,
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    usage,
  };
}

function outputItems(reply: Reply): unknown[] {
  const items: unknown[] = [];
  if (reply.text !== null) items.push(messageItem(reply, reply.text, 'completed'));
  for (const call of reply.toolCalls) items.push(callItem(call, call.arguments, 'completed'));
  return items;
}

export function responsesJson(reply: Reply, body: Body): unknown {
  return responseObject(reply, body, 'completed', outputItems(reply), usageOf(reply));
}

export function responsesStream(reply: Reply, body: Body): SseEvent[] {
  let seq = 0;
  const events: SseEvent[] = [];
  const emit = (type: string, fields: Record<string, unknown>) =>
    events.push(sse(type, { type, sequence_number: seq++, ...fields }));
  emit('response.created', { response: responseObject(reply, body, 'in_progress', [], null) });
  emit('response.in_progress', { response: responseObject(reply, body, 'in_progress', [], null) });
  let outputIndex = 0;
  if (reply.text !== null) {
    const item = messageItem(reply, reply.text, 'in_progress');
    emit('response.output_item.added', { output_index: outputIndex, item });
    const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
    emit('response.content_part.added', {
      item_id: item.id,
      output_index: outputIndex,
      content_index: 0,
      part,
    });
    for (const delta of pieces(reply.text)) {
      emit('response.output_text.delta', {
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        delta,
        logprobs: [],
      });
    }
    emit('response.output_text.done', {
      item_id: item.id,
      output_index: outputIndex,
      content_index: 0,
      text: reply.text,
      logprobs: [],
    });
    emit('response.content_part.done', {
      item_id: item.id,
      output_index: outputIndex,
      content_index: 0,
      part: { ...part, text: reply.text },
    });
    emit('response.output_item.done', {
      output_index: outputIndex,
      item: messageItem(reply, reply.text, 'completed'),
    });
    outputIndex++;
  }
  for (const call of reply.toolCalls) {
    const item = callItem(call, '', 'in_progress');
    emit('response.output_item.added', { output_index: outputIndex, item });
    for (const delta of pieces(call.arguments)) {
      emit('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta });
    }
    emit('response.function_call_arguments.done', {
      item_id: item.id,
      output_index: outputIndex,
      arguments: call.arguments,
    });
    emit('response.output_item.done', {
      output_index: outputIndex,
      item: callItem(call, call.arguments, 'completed'),
    });
    outputIndex++;
  }
  emit('response.completed', {
    response: responseObject(reply, body, 'completed', outputItems(reply), usageOf(reply)),
  });
  return events;
}

export function openaiError(status: number, message: string): unknown {
  const type =
    status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: type } };
}
