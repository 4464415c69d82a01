/** Stable error codes: tests and callers branch on these, never on message text. */
export type MedbenchErrorCode =
  | 'CONFIG_INVALID'
  | 'DATA_NOT_FOUND'
  | 'DATA_INVALID'
  | 'TOKENIZER_UNKNOWN'
  | 'MODEL_SPEC_INVALID'
  | 'MISSING_SECRET'
  | 'ENDPOINT_UNREACHABLE'
  | 'ENDPOINT_DISCONNECTED'
  | 'ENDPOINT_AUTH'
  | 'ENDPOINT_HTTP'
  | 'ENDPOINT_BAD_RESPONSE'
  | 'ENDPOINT_TIMEOUT'
  | 'EMBEDDING_INVALID'
  | 'MODEL_FOLDER_INVALID'
  | 'ABORTED'
  | 'STORE_ERROR'
  | 'USAGE';

export interface MedbenchErrorOptions {
  code: MedbenchErrorCode;
  message: string;
  /** What the user can do about it, shown under the message. */
  hint?: string;
  /** Whether repeating the same call may succeed (429, 5xx, timeouts). */
  retryable?: boolean;
  /** Server-requested wait before a retry, from a Retry-After header. */
  retryAfterMs?: number;
  /** HTTP status when the error came from an endpoint. */
  status?: number;
  cause?: unknown;
}

export class MedbenchError extends Error {
  readonly code: MedbenchErrorCode;
  readonly hint: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;

  constructor(options: MedbenchErrorOptions) {
    super(options.message, { cause: options.cause });
    this.name = 'MedbenchError';
    this.code = options.code;
    this.hint = options.hint;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
    this.status = options.status;
  }

  static is(value: unknown): value is MedbenchError {
    return value instanceof MedbenchError;
  }
}

/** Fatal errors stop a whole run: retrying another sample would fail the same way. */
export function isFatalForRun(error: MedbenchError): boolean {
  return (
    error.code === 'ENDPOINT_AUTH' || error.code === 'ENDPOINT_UNREACHABLE' || error.code === 'MISSING_SECRET'
  );
}
