// Errors a user can act on. Anything that reaches the CLI as a UserError prints its message and exits 2;
// other errors are bugs and are reported as internal errors (also exit 2, never a stack trace by default).

export type UserErrorCode =
  | 'USAGE'
  | 'NOT_FOUND'
  | 'NO_SKILL'
  | 'UNREADABLE'
  | 'BINARY_SKILL_MD'
  | 'EMPTY_SKILL_MD'
  | 'UNSAFE_PATH'
  | 'UNSAFE_ARCHIVE'
  | 'ARCHIVE_TOO_LARGE'
  | 'ARCHIVE_INVALID'
  | 'LIMIT_EXCEEDED'
  | 'GIT_FAILED'
  | 'NETWORK_UNAVAILABLE'
  | 'UNSUPPORTED_SOURCE'
  | 'INVALID_RULES'
  | 'INVALID_INDICATORS';

export class UserError extends Error {
  readonly code: UserErrorCode;
  /** The file or source the error is about, when there is one. */
  readonly file: string | undefined;

  constructor(code: UserErrorCode, message: string, file?: string) {
    super(message);
    this.name = 'UserError';
    this.code = code;
    this.file = file;
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
