import { describe, expect, it } from 'vitest';
import { batchChunks, estimatedLineBytes } from './batch-chunks.js';
import type { PendingRequest } from './pending-requests.js';

/** A pending request whose one message holds `chars` ASCII characters. */
function pending(cacheKey: string, chars: number): PendingRequest {
  return {
    cacheKey,
    promptTokens: null,
    request: {
      messages: [{ role: 'user', content: 'x'.repeat(chars) }],
      parameters: { temperature: 0, maxOutputTokens: 16 },
    },
  };
}

describe('batchChunks', () => {
  it('over-estimates a line: UTF-8 bytes, 2% for escapes, 4 KB for the rest', () => {
    expect(estimatedLineBytes(pending('a', 10_000))).toBe(4096 + 10_200);
    const chinese = { ...pending('z', 0) };
    chinese.request = { ...chinese.request, messages: [{ role: 'user', content: '病'.repeat(1000) }] };
    // Three bytes a character in UTF-8.
    expect(estimatedLineBytes(chinese)).toBe(4096 + 3060);
  });

  it('cuts by request count and by 90% of the byte limit, keeping the order', () => {
    // Each line 4,096 + 95,904 × 1.02 ≈ 101,918 bytes: eight fit 90% of 1,000,000 (815,344), nine do not.
    const requests = Array.from({ length: 20 }, (_, index) => pending(`k${index}`, 95_904));
    const byBytes = batchChunks(requests, { maxRequests: 100, maxBytes: 1_000_000 });
    expect(byBytes.map((chunk) => chunk.length)).toEqual([8, 8, 4]);
    expect(byBytes.flat()).toEqual(requests.map((request) => request.cacheKey));
    expect(batchChunks(requests, { maxRequests: 6, maxBytes: 1e12 }).map((c) => c.length)).toEqual([
      6, 6, 6, 2,
    ]);
  });

  it('puts a request larger than the limit in a batch of its own', () => {
    const chunks = batchChunks([pending('a', 10), pending('huge', 2_000_000), pending('b', 10)], {
      maxRequests: 100,
      maxBytes: 1_000_000,
    });
    expect(chunks).toEqual([['a'], ['huge'], ['b']]);
  });

  it('never cuts a batch below the least a provider takes: the last one is balanced with those before', () => {
    const requests = Array.from({ length: 250 }, (_, index) => pending(`k${index}`, 10));
    const limits = { maxRequests: 150, maxBytes: 1e12, minRequests: 100 };
    // Greedy: 150 and 60, the 60 below the least; balanced: 105 and 105.
    const chunks = batchChunks(requests.slice(0, 210), limits);
    expect(chunks.map((chunk) => chunk.length)).toEqual([105, 105]);
    expect(chunks.flat()).toEqual(requests.slice(0, 210).map((request) => request.cacheKey));
    expect(batchChunks(requests.slice(0, 230), { ...limits, maxRequests: 200 }).map((c) => c.length)).toEqual(
      [115, 115],
    );
    // 250 in batches of 100 to 120: two pass 120, three fall below 100.
    expect(() => batchChunks(requests, { ...limits, maxRequests: 120 })).toThrow(
      /at least 100 requests each/,
    );
    // Cuts the greedy walk makes whole are kept.
    expect(batchChunks(requests.slice(0, 240), { ...limits, maxRequests: 120 }).map((c) => c.length)).toEqual(
      [120, 120],
    );
  });

  it('balances within the byte limit too, and refuses what no cut of at least the least fits', () => {
    // Each line about 101,918 bytes: eight fit 90% of 1,000,000.
    const requests = Array.from({ length: 13 }, (_, index) => pending(`k${index}`, 95_904));
    const limits = { maxRequests: 100, maxBytes: 1_000_000, minRequests: 6 };
    expect(batchChunks(requests, limits).map((chunk) => chunk.length)).toEqual([6, 7]);
    expect(() => batchChunks(requests, { ...limits, minRequests: 7 })).toThrow(
      /cannot be cut into batches of at least 7 requests each/,
    );
  });
});
