import { MedbenchError } from '../core/errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest wait a server's Retry-After may impose; longer requests are cut to this. */
  maxRetryAfterMs: number;
  /**
   * How long an endpoint that cannot be reached at all (refused, unknown host, no connection
   * within the connect timeout) is tried again before the error is final.
   */
  unreachableMs: number;
}

/** The retries a run makes when the caller sets none. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 6,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  maxRetryAfterMs: 60_000,
  unreachableMs: 7000,
};

/** First wait after an unreachable endpoint; doubles per attempt. */
const UNREACHABLE_FIRST_DELAY_MS = 500;

/** Full-jitter-style backoff: uniform in [d/2, d] with d = min(max, base · 2^attempt). */
export function backoffDelay(
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  attempt: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + random() * (ceiling / 2);
}

const stoppedError = () => new MedbenchError({ code: 'ABORTED', message: 'Stopped.' });

export function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(stoppedError());
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(stoppedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** How a call with retries ended: failure is data, with the number of attempts really made. */
export type RetryOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | {
      ok: false;
      error: MedbenchError;
      attempts: number;
      /** The wait before another attempt was cut short by a stop request. */
      stopped: boolean;
    };

function asMedbenchError(error: unknown): MedbenchError {
  return MedbenchError.is(error)
    ? error
    : new MedbenchError({ code: 'ENDPOINT_BAD_RESPONSE', message: String(error), cause: error });
}

/**
 * Calls `attempt` until it succeeds, fails with a non-retryable error, or the retries, the
 * deadline or (for an unreachable endpoint) `unreachableMs` run out. Reads only
 * `MedbenchError.retryable`; a server's Retry-After wins over the backoff, up to
 * `maxRetryAfterMs`. `signal` ends any wait at once (Ctrl-C must not sit through a long
 * Retry-After); cancelling an attempt in flight is the attempt's business.
 */
export async function retrying<T>(options: {
  policy: RetryPolicy;
  signal?: AbortSignal;
  /** Epoch milliseconds after which no new attempt starts. */
  deadline?: number;
  /** `timeLeftMs`: until the deadline (Infinity without one), for the attempt's own timeout. */
  attempt: (attemptNumber: number, timeLeftMs: number) => Promise<T>;
  onRetry?: (error: MedbenchError, delayMs: number, attemptNumber: number) => void;
}): Promise<RetryOutcome<T>> {
  const { policy } = options;
  const deadline = options.deadline ?? Number.POSITIVE_INFINITY;
  let unreachableSince: number | undefined;
  let unreachableFailures = 0;
  for (let attemptNumber = 0; ; attemptNumber++) {
    const attempts = attemptNumber + 1;
    const startedAt = Date.now();
    try {
      return { ok: true, value: await options.attempt(attemptNumber, deadline - Date.now()), attempts };
    } catch (caught) {
      const error = asMedbenchError(caught);
      const failed = { ok: false as const, error, attempts, stopped: false };
      if (!error.retryable || attemptNumber >= policy.maxRetries || options.signal?.aborted) return failed;
      let delayMs: number;
      if (error.code === 'ENDPOINT_UNREACHABLE') {
        unreachableSince ??= startedAt;
        delayMs = UNREACHABLE_FIRST_DELAY_MS * 2 ** unreachableFailures++;
        if (Date.now() + delayMs - unreachableSince > policy.unreachableMs) return failed;
      } else {
        unreachableSince = undefined;
        unreachableFailures = 0;
        delayMs =
          error.retryAfterMs !== undefined
            ? Math.min(error.retryAfterMs, policy.maxRetryAfterMs)
            : backoffDelay(policy, attemptNumber);
      }
      if (Date.now() + delayMs >= deadline) return failed;
      options.onRetry?.(error, delayMs, attemptNumber);
      try {
        await sleep(delayMs, options.signal);
      } catch {
        return { ...failed, stopped: true };
      }
      // A timer can fire late on a loaded machine: never start an attempt with no time left.
      if (Date.now() >= deadline) return failed;
    }
  }
}

/** `retrying`, throwing the last error (with the attempts made) instead of returning it. */
export async function withRetry<T>(options: Parameters<typeof retrying<T>>[0]): Promise<{
  value: T;
  attempts: number;
}> {
  const outcome = await retrying(options);
  if (outcome.ok) return outcome;
  throw outcome.error;
}
