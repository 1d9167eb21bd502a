/** Why a model call failed, after retries where retrying made sense. */
export type ModelFailure = 'http' | 'timeout' | 'network' | 'output';

export class ModelCallError extends Error {
  readonly kind: ModelFailure;
  /** HTTP status of the last attempt, when there was a response. */
  readonly status: number | undefined;
  readonly attempts: number;

  constructor(kind: ModelFailure, message: string, attempts: number, status?: number, cause?: unknown) {
    super(message, { cause });
    this.name = 'ModelCallError';
    this.kind = kind;
    this.status = status;
    this.attempts = attempts;
  }
}
