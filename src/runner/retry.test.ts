import { describe, expect, it } from 'vitest';
import { MedbenchError } from '../core/errors.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retrying } from './retry.js';

const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, maxRetries: 3, baseDelayMs: 10, maxDelayMs: 40 };

const failing = (error: MedbenchError, times = Number.POSITIVE_INFINITY) => {
  let calls = 0;
  return async () => {
    calls++;
    if (calls <= times) throw error;
    return 'answer';
  };
};

describe('retrying', () => {
  it('counts the attempts really made: 1 for a non-retryable error, 1 + retries otherwise', async () => {
    const badRequest = new MedbenchError({ code: 'ENDPOINT_HTTP', message: '400', status: 400 });
    expect(await retrying({ policy, attempt: failing(badRequest) })).toMatchObject({
      ok: false,
      attempts: 1,
    });
    const busy = new MedbenchError({ code: 'ENDPOINT_HTTP', message: '503', status: 503, retryable: true });
    expect(await retrying({ policy, attempt: failing(busy) })).toMatchObject({ ok: false, attempts: 4 });
    expect(await retrying({ policy, attempt: failing(busy, 2) })).toEqual({
      ok: true,
      value: 'answer',
      attempts: 3,
    });
  });

  it("caps a server's Retry-After at maxRetryAfterMs", async () => {
    const tooLong = new MedbenchError({
      code: 'ENDPOINT_HTTP',
      message: '429',
      status: 429,
      retryable: true,
      retryAfterMs: 86_400_000,
    });
    const delays: number[] = [];
    const outcome = await retrying({
      policy: { ...policy, maxRetryAfterMs: 30 },
      attempt: failing(tooLong, 2),
      onRetry: (_, delayMs) => delays.push(delayMs),
    });
    expect(outcome.ok).toBe(true);
    expect(delays).toEqual([30, 30]);
  });

  it('a stop ends the wait at once, and the outcome says it was stopped', async () => {
    const slow = new MedbenchError({
      code: 'ENDPOINT_HTTP',
      message: '429',
      status: 429,
      retryable: true,
      retryAfterMs: 60_000,
    });
    const stop = new AbortController();
    const started = Date.now();
    setTimeout(() => stop.abort(), 50);
    const outcome = await retrying({ policy, signal: stop.signal, attempt: failing(slow) });
    expect(outcome).toMatchObject({ ok: false, stopped: true, attempts: 1 });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('gives an unreachable endpoint unreachableMs, then the error is final', async () => {
    const refused = new MedbenchError({ code: 'ENDPOINT_UNREACHABLE', message: 'refused', retryable: true });
    const delays: number[] = [];
    const started = Date.now();
    const outcome = await retrying({
      policy: { ...policy, maxRetries: 100, unreachableMs: 2000 },
      attempt: failing(refused),
      onRetry: (_, delayMs) => delays.push(delayMs),
    });
    // Waits of 0.5 s and 1 s; a third (2 s) would end past the 2 s budget.
    expect(delays).toEqual([500, 1000]);
    expect(outcome).toMatchObject({ ok: false, attempts: 3 });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('starts no attempt after the deadline, and gives the attempt the time left', async () => {
    const busy = new MedbenchError({ code: 'ENDPOINT_TIMEOUT', message: 'timed out', retryable: true });
    const timeLeft: number[] = [];
    const outcome = await retrying({
      policy: { ...policy, maxRetries: 100, baseDelayMs: 40, maxDelayMs: 40 },
      deadline: Date.now() + 150,
      attempt: async (_, left) => {
        timeLeft.push(left);
        throw busy;
      },
    });
    expect(outcome.ok).toBe(false);
    expect(timeLeft.length).toBeGreaterThanOrEqual(2);
    expect(timeLeft.length).toBeLessThanOrEqual(8);
    expect(timeLeft.every((left) => left > 0 && left <= 150)).toBe(true);
  });

  it('starts no attempt when the wait before it ends past the deadline (a late timer)', async () => {
    const busy = new MedbenchError({ code: 'ENDPOINT_TIMEOUT', message: 'timed out', retryable: true });
    const timeLeft: number[] = [];
    const outcome = await retrying({
      policy: { ...policy, maxRetries: 100, baseDelayMs: 40, maxDelayMs: 40 },
      deadline: Date.now() + 100,
      attempt: async (_, left) => {
        timeLeft.push(left);
        throw busy;
      },
      // Holds the thread past the deadline after the wait was granted, as a loaded machine can.
      onRetry: () => {
        const until = Date.now() + 120;
        while (Date.now() < until);
      },
    });
    expect(outcome).toMatchObject({ ok: false, attempts: 1 });
    expect(timeLeft).toHaveLength(1);
  });
});
