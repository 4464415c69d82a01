import { MedbenchError } from '../core/errors.js';
import type { PendingRequest } from './pending-requests.js';

/** What one submission may hold: at most `maxRequests` and `maxBytes`, at least `minRequests` (default one). */
export interface ChunkLimits {
  maxRequests: number;
  maxBytes: number;
  minRequests?: number | undefined;
}

/** A request's share of a batch's input, over-estimated: its texts' UTF-8 bytes, 2% for JSON's escapes, 4 KB for the rest. */
export function estimatedLineBytes(request: PendingRequest): number {
  let bytes = 4096;
  for (const message of request.request.messages) bytes += Buffer.byteLength(message.content, 'utf8') * 1.02;
  return bytes;
}

/**
 * The pending requests cut into submissions, in their order (the prefix order: what shares a
 * prefix stays together): each at most `maxRequests` and, by `estimatedLineBytes`, at most 90% of
 * `maxBytes` (a request larger than that alone goes in a batch of its own, for the provider to
 * judge). Where a provider takes no fewer than `minRequests` a batch, a last submission below it
 * is not made: the requests are cut into as few submissions of balanced sizes as the limits allow
 * (at least `minRequests` requests given; fewer are the caller's to refuse).
 */
export function batchChunks(requests: readonly PendingRequest[], limits: ChunkLimits): string[][] {
  const greedy = greedyChunks(requests, limits);
  const least = limits.minRequests ?? 1;
  if (greedy.every((chunk) => chunk.length >= least)) return greedy;
  const sizes = requests.map(estimatedLineBytes);
  for (let count = greedy.length; Math.floor(requests.length / count) >= least; count++) {
    const chunks = balancedChunks(requests.length, count);
    const fits = chunks.every(
      ([from, to]) => to - from <= limits.maxRequests && sum(sizes, from, to) <= limits.maxBytes * 0.9,
    );
    if (fits) return chunks.map(([from, to]) => requests.slice(from, to).map((request) => request.cacheKey));
  }
  throw new MedbenchError({
    code: 'USAGE',
    message: `The ${requests.length} pending requests cannot be cut into batches of at least ${least} requests each within the provider's limit of ${limits.maxBytes} bytes a batch.`,
    hint: 'Leave out --batch for this run (its prompts are too large for batches of the least size the provider takes).',
  });
}

/** Cuts from the start: a new submission where the next request would pass a limit. */
function greedyChunks(requests: readonly PendingRequest[], limits: ChunkLimits): string[][] {
  const budget = limits.maxBytes * 0.9;
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let bytes = 0;
  for (const request of requests) {
    const size = estimatedLineBytes(request);
    if (chunk.length > 0 && (chunk.length >= limits.maxRequests || bytes + size > budget)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(request.cacheKey);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** `total` items in `count` runs of sizes that differ by one at most: [from, to) each. */
function balancedChunks(total: number, count: number): Array<[number, number]> {
  return Array.from({ length: count }, (_, index) => [
    Math.floor((index * total) / count),
    Math.floor(((index + 1) * total) / count),
  ]);
}

function sum(values: readonly number[], from: number, to: number): number {
  let total = 0;
  for (let index = from; index < to; index++) total += values[index]!;
  return total;
}
