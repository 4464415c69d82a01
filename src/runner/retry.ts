import { MedbenchError } from '../core/errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 6, baseDelayMs: 1000, maxDelayMs: 60_000 };

/** Full-jitter-style backoff: uniform in [d/2, d] with d = min(max, base · 2^attempt). */
export function backoffDelay(
  policy: RetryPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + random() * (ceiling / 2);
}

export function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new MedbenchError({ code: 'ABORTED', message: 'Stopped.' }));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new MedbenchError({ code: 'ABORTED', message: 'Stopped.' }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Calls `attempt` until it succeeds, a non-retryable error occurs or the retries run out.
 * Reads only `MedbenchError.retryable`; a server's Retry-After wins over the backoff.
 */
export async function withRetry<T>(options: {
  policy: RetryPolicy;
  signal?: AbortSignal;
  attempt: (attemptNumber: number) => Promise<T>;
  onRetry?: (error: MedbenchError, delayMs: number) => void;
}): Promise<{ value: T; attempts: number }> {
  for (let attemptNumber = 0; ; attemptNumber++) {
    try {
      return { value: await options.attempt(attemptNumber), attempts: attemptNumber + 1 };
    } catch (error) {
      const known = MedbenchError.is(error)
        ? error
        : new MedbenchError({ code: 'ENDPOINT_BAD_RESPONSE', message: String(error), cause: error });
      if (!known.retryable || attemptNumber >= options.policy.maxRetries || options.signal?.aborted)
        throw known;
      const delayMs = known.retryAfterMs ?? backoffDelay(options.policy, attemptNumber);
      options.onRetry?.(known, delayMs);
      await sleep(delayMs, options.signal);
    }
  }
}
