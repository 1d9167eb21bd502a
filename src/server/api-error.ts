// Errors the HTTP API answers with: a status and a stable machine-readable code, rendered as
// `{"error": {"code", "message"}}`. Anything else that escapes a handler is a bug and answers 500.

export type ApiStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

export class ApiError extends Error {
  readonly status: ApiStatus;
  readonly code: string;
  /** Seconds to wait before retrying (429, 503). */
  readonly retryAfter: number | undefined;

  constructor(status: ApiStatus, code: string, message: string, retryAfter?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}
