/** Stable error codes: tests and callers branch on these, never on message text. */
export type MedbenchErrorCode =
  | 'CONFIG_INVALID'
  | 'DATA_NOT_FOUND'
  | 'DATA_INVALID'
  | 'TOKENIZER_UNKNOWN'
  | 'MODEL_SPEC_INVALID'
  /** The endpoint answered that it has no such model (or deployment). */
  | 'MODEL_NOT_FOUND'
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
  /** The store file is not a medbench store, or SQLite or a JSON column shows it damaged. */
  | 'STORE_DAMAGED'
  | 'FILE_ERROR'
  /** Restricted (credentialed) data would go to an endpoint not approved to receive it. */
  | 'DATA_RESTRICTED'
  /** A provider batch gave no answer to the request (it failed, expired or was cancelled): a re-run sends it in a new batch. */
  | 'BATCH_FAILED'
  /** A feature's optional package (an optional peer dependency) is not installed. */
  | 'PART_MISSING'
  | 'USAGE';

/** The fields of a `MedbenchError`. */
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

/** medbench's error: a stable code to branch on, a message saying what is wrong, and a hint saying what to do. */
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
    error.code === 'ENDPOINT_AUTH' ||
    error.code === 'ENDPOINT_UNREACHABLE' ||
    error.code === 'MISSING_SECRET' ||
    error.code === 'PART_MISSING'
  );
}

/**
 * The endpoint as a whole failed, not the request (refused, unreachable, no such model): with
 * several endpoints it rests and another takes the request.
 */
export function failsWholeEndpoint(error: MedbenchError): boolean {
  return isFatalForRun(error) || error.status === 404;
}

/**
 * A failure of the endpoint's service rather than of the request or the settings: it cannot be
 * reached, the connection broke or timed out, or it answered a server error (5xx). A refusal (401,
 * 404, 429, a malformed body) is not one.
 */
export function isEndpointOutage(error: MedbenchError): boolean {
  return (
    error.code === 'ENDPOINT_UNREACHABLE' ||
    error.code === 'ENDPOINT_DISCONNECTED' ||
    error.code === 'ENDPOINT_TIMEOUT' ||
    (error.status !== undefined && error.status >= 500)
  );
}

const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  ENOENT: 'no such file or folder',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
};

/** Whether `error` is a Node file-system error (it has an errno code and a system call). */
export function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  const candidate = error as NodeJS.ErrnoException | undefined;
  return typeof candidate?.code === 'string' && typeof candidate.syscall === 'string';
}

/**
 * A file-system failure as a clear error: what could not be done to which path, why in words,
 * the errno code, and what to do. Used wherever medbench reads or writes a file it was given.
 */
export function fileError(
  error: unknown,
  options: { path: string; action: 'read' | 'write' },
): MedbenchError {
  const code = isFileSystemError(error) ? error.code! : undefined;
  // A recursive mkdir through a file reports EEXIST.
  const reason =
    code === 'EEXIST' && (error as NodeJS.ErrnoException).syscall === 'mkdir'
      ? FILE_PROBLEMS.ENOTDIR!
      : ((code && FILE_PROBLEMS[code]) ?? (error as Error)?.message ?? String(error));
  return new MedbenchError({
    code: 'FILE_ERROR',
    message: `Cannot ${options.action} ${options.path}: ${reason}${code ? ` (${code})` : ''}.`,
    hint:
      options.action === 'write'
        ? 'Choose a path on a writable disk with free space (for the store: --home or MEDBENCH_HOME).'
        : 'Check the path and its permissions.',
    cause: error,
  });
}
