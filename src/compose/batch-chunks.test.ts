import { describe, expect, it } from 'vitest';
import type { PendingRequest } from './pending-requests.js';
import { batchChunks, estimatedLineBytes } from './run-batches.js';

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
});
