import { browser } from 'wxt/browser';
import { BadResponse, parseAudit, parseErrorBody, parseLookup } from './audit.js';
import { parseRequest } from './message-guard.js';
import type { Failure, Replies, Reply, Request } from './protocol.js';
import { hostPermissionPattern, InvalidServerUrl, serverOrigin } from './server-url.js';
import { loadSettings, type Settings } from './settings.js';

// The background worker's side of the protocol: one function per request kind, each a call to the configured
// SkillAudit server (API contract in docs/extension.md).

// A badge that waits longer than this is worse than one that says the server did not answer.
const TIMEOUT_MS = 15_000;
// Every answer of the API is a few hundred bytes; a server sending more is broken or hostile.
const MAX_BODY_BYTES = 1 << 20;

class RequestFailed extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

function fail(code: Failure['code'], message: string): never {
  throw new RequestFailed({ code, message });
}

async function readBody(response: Response): Promise<unknown> {
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      fail('bad-response', 'the server sent an oversized answer');
    }
    text += decoder.decode(value, { stream: true });
  }
  try {
    return JSON.parse(text + decoder.decode()) as unknown;
  } catch {
    return undefined;
  }
}

function failureForStatus(status: number, body: unknown): never {
  const detail = parseErrorBody(body)?.message ?? `HTTP ${status}`;
  if (status === 401 || status === 403) fail('unauthorized', `the server refused the token: ${detail}`);
  if (status === 429) fail('rate-limited', `the server is busy, try again later: ${detail}`);
  fail('refused', `the server refused the request: ${detail}`);
}

async function callServer(
  settings: Settings,
  path: string,
  init: RequestInit = {},
): Promise<{ origin: string; body: unknown }> {
  let origin: string;
  try {
    origin = serverOrigin(settings.serverUrl);
  } catch (error) {
    if (error instanceof InvalidServerUrl) fail('unreachable', error.message);
    throw error;
  }
  const granted = await browser.permissions.contains({ origins: [hostPermissionPattern(origin)] });
  if (!granted) fail('no-permission', `SkillAudit may not contact ${origin} yet: allow it in Options`);
  let response: Response;
  try {
    // No cookies (the token is the only credential) and no redirects (a redirect could carry the token elsewhere).
    // The token goes with every call: a private service answers lookups and statuses to its tenants only.
    const headers = new Headers(init.headers);
    if (settings.token && !headers.has('authorization'))
      headers.set('authorization', `Bearer ${settings.token}`);
    response = await fetch(new URL(path, origin), {
      ...init,
      headers,
      credentials: 'omit',
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    fail('unreachable', `no answer from the SkillAudit server at ${origin}`);
  }
  const body = await readBody(response);
  // A private service shares verdicts with its tenants only: without a token, say to set one.
  if (response.status === 401 && !settings.token)
    fail(
      'no-token',
      'this SkillAudit server shares verdicts only with a token: set one in the SkillAudit options',
    );
  if (!response.ok) failureForStatus(response.status, body);
  return { origin, body };
}

async function lookup(request: Extract<Request, { kind: 'lookup' }>): Promise<Replies['lookup']> {
  const settings = await loadSettings();
  const query = new URLSearchParams({ url: request.pageUrl });
  if (request.skill) query.set('skill', request.skill);
  const { origin, body } = await callServer(settings, `/api/lookup?${query}`);
  return { ...parseLookup(body, origin), canSubmit: settings.token !== '' };
}

async function submit(request: Extract<Request, { kind: 'submit' }>): Promise<Replies['submit']> {
  const settings = await loadSettings();
  if (!settings.token) fail('no-token', 'set a token in the SkillAudit options to request audits');
  const payload: { source: string; skill?: string } = { source: request.source };
  if (request.skill) payload.skill = request.skill;
  const { origin, body } = await callServer(settings, '/api/audits', {
    method: 'POST',
    headers: { authorization: `Bearer ${settings.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return parseAudit(body, origin);
}

async function status(request: Extract<Request, { kind: 'status' }>): Promise<Replies['status']> {
  const { origin, body } = await callServer(
    await loadSettings(),
    `/api/audits/${encodeURIComponent(request.id)}`,
  );
  return parseAudit(body, origin);
}

async function health(): Promise<Replies['health']> {
  const settings = await loadSettings();
  const { body } = await callServer(settings, '/api/health');
  const version = typeof body === 'object' && body !== null && 'version' in body ? body.version : undefined;
  if (typeof version !== 'string') fail('bad-response', 'the server at this URL is not a SkillAudit server');
  // A token the server does not know is refused here (401), not at the first audit request.
  if (settings.token) await callServer(settings, '/api/whoami');
  return { version: version.slice(0, 50) };
}

async function openOptions(): Promise<Replies['openOptions']> {
  await browser.runtime.openOptionsPage();
  return null;
}

const HANDLERS: { [K in Request['kind']]: (request: Extract<Request, { kind: K }>) => Promise<Replies[K]> } =
  {
    lookup,
    submit,
    status,
    health,
    openOptions,
  };

export async function handleRequest(message: unknown): Promise<Reply<Request['kind']>> {
  const request = parseRequest(message);
  if (!request) return { ok: false, failure: { code: 'refused', message: 'unknown request' } };
  try {
    const handler = HANDLERS[request.kind] as (request: Request) => Promise<Replies[Request['kind']]>;
    return { ok: true, value: await handler(request) };
  } catch (error) {
    if (error instanceof RequestFailed) return { ok: false, failure: error.failure };
    if (error instanceof BadResponse)
      return { ok: false, failure: { code: 'bad-response', message: error.message } };
    return { ok: false, failure: { code: 'unreachable', message: String(error) } };
  }
}
