// A scripted model server for tests: speaks Anthropic Messages, OpenAI Responses and Chat Completions (JSON and
// SSE) over real HTTP, so the real SDKs and agent harnesses can be exercised offline. Replies come from scripts
// and are chosen by the number of assistant turns already in the request, so the server keeps no conversation
// state and every run is deterministic. Every request is logged (auth headers removed) for assertions.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  anthropicCountTokens,
  anthropicError,
  anthropicJson,
  anthropicStream,
  anthropicView,
} from './fake-model/anthropic.js';
import { chatJson, chatStream, chatView } from './fake-model/chat-completions.js';
import { openaiError, responsesJson, responsesStream, responsesView } from './fake-model/openai-responses.js';
import { encodeSse, type SseEvent, sse } from './fake-model/sse.js';
import type {
  FakeRequestView,
  FakeScript,
  FakeTurn,
  FakeUsage,
  Protocol,
  Reply,
} from './fake-model/types.js';

export type {
  FakeRequestView,
  FakeScript,
  FakeToolCall,
  FakeTurn,
  FakeUsage,
  Protocol,
} from './fake-model/types.js';

/** A fault injected into the next matching requests: an HTTP error (with optional retry-after) or a delay. */
export interface FakeFault {
  /** HTTP status to answer with; absent means "answer normally after `delayMs`". */
  status?: number;
  /** Value of the retry-after header (seconds or an HTTP date). */
  retryAfter?: string;
  delayMs?: number;
  /** How many requests the fault applies to (default 1). */
  times?: number;
  /** Only requests to this path (default: any model request). */
  path?: string;
  /**
   * Fail a streaming reply after its first event with the protocol's in-stream error (Anthropic
   * overloaded_error, Responses `error` event, Chat Completions error chunk). Applies to streaming requests only.
   */
  midStream?: boolean;
}

export interface LoggedRequest {
  method: string;
  path: string;
  /** Lower-case header names; authorization, x-api-key and cookies removed. */
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: parsed wire JSON.
  body: any;
  protocol: Protocol | null;
  stream: boolean;
  /** The script that answered, or null for side requests, errors and non-model paths. */
  script: string | null;
  /** Index of the scripted turn that answered. */
  turn: number | null;
  status: number;
}

export interface FakeModelServerOptions {
  scripts?: FakeScript[];
  /** Default usage for every reply (a turn may override parts). */
  usage?: Partial<FakeUsage>;
  /** Delay before every reply starts. */
  latencyMs?: number;
  /** Delay between SSE events. */
  chunkDelayMs?: number;
  /** Reply text for tool-less side requests (default "ok"). */
  sideReply?: string;
  /** Model name echoed when the request names none. */
  model?: string;
}

export interface FakeModelServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** `${url}/v1`: the base URL for the Anthropic and OpenAI SDKs. */
  baseUrl: string;
  requests: LoggedRequest[];
  setScripts(scripts: FakeScript[]): void;
  inject(fault: FakeFault): void;
  /** Forgets logged requests and pending faults (between tests). */
  reset(): void;
  close(): Promise<void>;
}

/**
 * A matcher for scripts: does the request mention `needle` in its system prompt, its tool definitions (where
 * harnesses such as Claude Code list skills), or anywhere in the body?
 */
export function mentions(needle: string, where: 'system' | 'tools' | 'anywhere' = 'anywhere') {
  return (req: FakeRequestView): boolean => {
    if (where === 'system') return req.system.includes(needle);
    if (where === 'tools') return JSON.stringify(req.body.tools ?? []).includes(needle);
    return req.raw.includes(needle);
  };
}

const HIDDEN_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'cookie', 'proxy-authorization']);
const DEFAULT_USAGE: FakeUsage = { input: 100, cached: 0, output: 20 };
const ROUTES: Record<string, Protocol> = {
  '/v1/messages': 'anthropic',
  '/v1/responses': 'responses',
  '/v1/chat/completions': 'chat',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  let scripts = options.scripts ?? [];
  const faults: (FakeFault & { left: number })[] = [];
  const requests: LoggedRequest[] = [];
  const usage: FakeUsage = { ...DEFAULT_USAGE, ...options.usage };
  let counter = 0;

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error), type: 'server_error' } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(req);
    let body: unknown = null;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const entry: LoggedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: visibleHeaders(req),
      body,
      protocol: ROUTES[path] ?? null,
      stream: isObject(body) && body.stream === true,
      script: null,
      turn: null,
      status: 200,
    };
    requests.push(entry);
    const respond = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      entry.status = status;
      sendJson(res, status, payload, headers);
    };

    if (req.method === 'GET' && path === '/v1/models') {
      respond(200, modelList(req, options.model ?? 'fake-model'));
      return;
    }
    if (req.method !== 'POST') {
      respond(404, openaiError(404, `no route ${req.method} ${path}`));
      return;
    }
    if (path === '/v1/messages/count_tokens' && isObject(body)) {
      respond(200, anthropicCountTokens(body));
      return;
    }
    const protocol = entry.protocol;
    if (protocol === null) {
      respond(404, openaiError(404, `no route POST ${path}`));
      return;
    }
    if (!isObject(body)) {
      respond(400, errorBody(protocol, 400, 'request body is not a JSON object'));
      return;
    }

    const fault = takeFault(path, entry.stream);
    if (fault?.delayMs) await sleep(fault.delayMs);
    if (fault?.status) {
      const headers: Record<string, string> = fault.retryAfter ? { 'retry-after': fault.retryAfter } : {};
      respond(fault.status, errorBody(protocol, fault.status, `injected ${fault.status}`), headers);
      return;
    }

    const view = viewOf(protocol, body, raw);
    const chosen = choose(view);
    entry.script = chosen?.script.name ?? null;
    entry.turn = chosen ? view.assistantTurns : null;
    const reply = buildReply(view, chosen?.turn ?? null, String(++counter));
    if (options.latencyMs) await sleep(options.latencyMs);
    if (res.destroyed) return;
    if (entry.stream) {
      const events = encode(protocol, reply, body, true) as SseEvent[];
      await sendStream(res, fault?.midStream ? [...events.slice(0, 1), streamError(protocol)] : events);
    } else respond(200, encode(protocol, reply, body, false));
  }

  function takeFault(path: string, stream: boolean): FakeFault | null {
    const index = faults.findIndex(
      (f) => (f.path === undefined || f.path === path) && (!f.midStream || stream),
    );
    if (index < 0) return null;
    const fault = faults[index]!;
    fault.left--;
    if (fault.left <= 0) faults.splice(index, 1);
    return fault;
  }

  function choose(view: FakeRequestView): { script: FakeScript; turn: FakeTurn } | null {
    const toolless = view.toolNames.length === 0 && view.structured === null;
    for (const script of scripts) {
      if (toolless && !script.answersToolless) continue;
      if (script.match && !script.match(view)) continue;
      // Past the end of a script the model simply says it is done.
      return { script, turn: script.turns[view.assistantTurns] ?? { text: 'done' } };
    }
    return null;
  }

  function buildReply(view: FakeRequestView, turn: FakeTurn | null, id: string): Reply {
    const model = typeof view.body.model === 'string' ? view.body.model : (options.model ?? 'fake-model');
    const reply: Reply = { id, model, text: null, toolCalls: [], usage: { ...usage, ...turn?.usage } };
    if (turn === null) {
      reply.text = options.sideReply ?? 'ok';
      return reply;
    }
    const callId = (i: number, given?: string) => given ?? `call_${view.assistantTurns}_${i}`;
    if (view.structured) {
      const value = turn.json !== undefined ? turn.json : turn.toolCalls?.[0]?.input;
      if (view.structured.tool !== null) {
        reply.toolCalls = [
          { id: callId(0), name: view.structured.tool, arguments: JSON.stringify(value ?? {}) },
        ];
      } else {
        reply.text = value !== undefined ? JSON.stringify(value) : (turn.text ?? '{}');
      }
      return reply;
    }
    reply.text = turn.text ?? null;
    reply.toolCalls = (turn.toolCalls ?? []).map((c, i) => ({
      id: callId(i, c.id),
      name: c.name,
      arguments: JSON.stringify(c.input ?? {}),
    }));
    if (reply.text === null && reply.toolCalls.length === 0) reply.text = '';
    return reply;
  }

  async function sendStream(res: ServerResponse, events: SseEvent[]): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    for (const event of events) {
      if (res.destroyed) return;
      res.write(encodeSse(event));
      if (options.chunkDelayMs) await sleep(options.chunkDelayMs);
    }
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    setScripts(next) {
      scripts = next;
    },
    inject(fault) {
      faults.push({ ...fault, left: fault.times ?? 1 });
    },
    reset() {
      requests.length = 0;
      faults.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: parsed wire JSON.
function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// biome-ignore lint/suspicious/noExplicitAny: parsed wire JSON.
function viewOf(protocol: Protocol, body: Record<string, any>, raw: string): FakeRequestView {
  const parts =
    protocol === 'anthropic'
      ? anthropicView(body)
      : protocol === 'responses'
        ? responsesView(body)
        : chatView(body);
  return { protocol, body, raw, ...parts };
}

// biome-ignore lint/suspicious/noExplicitAny: parsed wire JSON.
function encode(protocol: Protocol, reply: Reply, body: any, stream: boolean): unknown {
  switch (protocol) {
    case 'anthropic':
      return stream ? anthropicStream(reply) : anthropicJson(reply);
    case 'responses':
      return stream ? responsesStream(reply, body) : responsesJson(reply, body);
    case 'chat':
      return stream ? chatStream(reply, body) : chatJson(reply);
  }
}

function streamError(protocol: Protocol): SseEvent {
  switch (protocol) {
    case 'anthropic':
      return sse('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    case 'responses':
      // Follows response.created, which carries sequence_number 0.
      return sse('error', {
        type: 'error',
        sequence_number: 1,
        code: 'server_error',
        message: 'injected stream error',
        param: null,
      });
    case 'chat':
      return sse(undefined, {
        error: { message: 'injected stream error', type: 'server_error', code: 'server_error' },
      });
  }
}

function errorBody(protocol: Protocol, status: number, message: string): unknown {
  return protocol === 'anthropic' ? anthropicError(status, message) : openaiError(status, message);
}

function modelList(req: IncomingMessage, model: string): unknown {
  if (req.headers['anthropic-version']) {
    const entry = { type: 'model', id: model, display_name: model, created_at: '2025-01-01T00:00:00Z' };
    return { data: [entry], has_more: false, first_id: model, last_id: model };
  }
  return { object: 'list', data: [{ id: model, object: 'model', created: 1735689600, owned_by: 'fake' }] };
}

function visibleHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (HIDDEN_HEADERS.has(name) || value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
