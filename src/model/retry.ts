import { APICallError } from 'ai';
import { errorMessage } from '../util/errors.js';
import { ModelCallError } from './errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff step; doubles each retry, with jitter. */
  baseDelayMs: number;
  /** Longest wait between attempts; a server asking for longer (retry-after) ends the retries. */
  maxDelayMs: number;
  /** Limit for one attempt, streaming included. */
  timeoutMs: number;
}

/** Four retries after waits of up to 1, 2, 4 and 8 s (jittered) or what retry-after asks; settings set the timeout. */
export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  timeoutMs: 300_000,
};

interface Classified {
  retryable: boolean;
  kind: ModelCallError['kind'];
  status: number | undefined;
  /** Wait the server asked for, in ms. */
  retryAfterMs: number | undefined;
  message: string;
}

/**
 * Runs `attempt` with a per-attempt timeout, retrying rate limits (429), server errors (5xx, 529 overloaded),
 * request timeouts and network failures with exponential backoff and jitter, honouring retry-after. Other
 * errors (400, 401, 404, unparsable output) fail at once: repeating them would only cost money.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  attempt: (signal: AbortSignal) => Promise<T>,
  outer?: AbortSignal,
): Promise<T> {
  for (let n = 0; ; n++) {
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
    try {
      return await attempt(signal);
    } catch (error) {
      if (outer?.aborted) throw error;
      const c = classify(error, timeout.aborted, policy.timeoutMs);
      const attempts = n + 1;
      if (!c.retryable || n >= policy.maxRetries) {
        const suffix = c.retryable ? ` (gave up after ${attempts} attempts)` : '';
        throw new ModelCallError(c.kind, `${c.message}${suffix}`, attempts, c.status, error);
      }
      if (c.retryAfterMs !== undefined && c.retryAfterMs > policy.maxDelayMs) {
        throw new ModelCallError(
          c.kind,
          `${c.message}; the server asks to retry after ${Math.ceil(c.retryAfterMs / 1000)} s, longer than the ` +
            `${Math.ceil(policy.maxDelayMs / 1000)} s limit`,
          attempts,
          c.status,
          error,
        );
      }
      await sleep(c.retryAfterMs ?? backoff(policy, n), outer);
    }
  }
}

/** Exponential backoff with "equal jitter": half the step fixed, half random, so clients spread out. */
export function backoff(policy: RetryPolicy, retry: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return step / 2 + Math.random() * (step / 2);
}

/** retry-after-ms (OpenAI) or retry-after in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(
  headers: Record<string, string> | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const value = lower['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function classify(error: unknown, timedOut: boolean, timeoutMs: number): Classified {
  if (timedOut) {
    return {
      retryable: true,
      kind: 'timeout',
      status: undefined,
      retryAfterMs: undefined,
      message: `model call timed out after ${timeoutMs} ms`,
    };
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const retryable =
      status === undefined
        ? error.isRetryable
        : status === 408 || status === 409 || status === 429 || status >= 500;
    return {
      retryable,
      kind: status === undefined ? 'network' : 'http',
      status,
      retryAfterMs: retryAfterMs(error.responseHeaders),
      message:
        status === undefined
          ? `request to ${error.url} failed: ${error.message}`
          : `${error.url} answered ${status}: ${error.message}`,
    };
  }
  const streamed = streamErrorOf(error);
  if (streamed) return streamed;
  return {
    retryable: false,
    kind: 'output',
    status: undefined,
    retryAfterMs: undefined,
    message: errorMessage(error),
  };
}

// In-stream errors arrive as plain objects: Anthropic's `error` event ({type: 'overloaded_error', message}),
// OpenAI's parsed stream error ({message, isRetryable, statusCode}).
const TRANSIENT_STREAM_ERRORS = new Set([
  'overloaded_error',
  'api_error',
  'rate_limit_error',
  'server_error',
]);

function streamErrorOf(error: unknown): Classified | null {
  if (!error || typeof error !== 'object' || error instanceof Error) return null;
  const e = error as {
    type?: unknown;
    code?: unknown;
    message?: unknown;
    isRetryable?: unknown;
    statusCode?: unknown;
  };
  if (typeof e.message !== 'string') return null;
  const retryable =
    e.isRetryable === true ||
    TRANSIENT_STREAM_ERRORS.has(String(e.type)) ||
    TRANSIENT_STREAM_ERRORS.has(String(e.code));
  return {
    retryable,
    kind: 'http',
    status: typeof e.statusCode === 'number' ? e.statusCode : undefined,
    retryAfterMs: undefined,
    message: `stream failed: ${typeof e.type === 'string' ? `${e.type}: ` : ''}${e.message}`,
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
