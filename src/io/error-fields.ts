import { MedbenchError, type MedbenchErrorCode } from '../core/errors.js';

/** An error's fields as they cross to another thread or process (a MedbenchError's code, hint, retry and status kept). */
export interface ErrorFields {
  message: string;
  code?: MedbenchErrorCode;
  hint?: string;
  retryable?: boolean;
  status?: number;
}

/** The fields of `error` to send: all of a MedbenchError's, the message of anything else. */
export function errorFields(error: unknown): ErrorFields {
  if (!MedbenchError.is(error)) return { message: String((error as Error)?.message ?? error) };
  return {
    message: error.message,
    code: error.code,
    ...(error.hint ? { hint: error.hint } : {}),
    ...(error.retryable ? { retryable: true } : {}),
    ...(error.status !== undefined ? { status: error.status } : {}),
  };
}

/** The error `errorFields` described: a MedbenchError when it had a code, else a plain Error. */
export function rebuiltError(fields: ErrorFields): Error {
  if (!fields.code) return new Error(fields.message);
  return new MedbenchError({
    code: fields.code,
    message: fields.message,
    ...(fields.hint ? { hint: fields.hint } : {}),
    ...(fields.retryable ? { retryable: true } : {}),
    ...(fields.status !== undefined ? { status: fields.status } : {}),
  });
}
