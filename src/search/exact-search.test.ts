import { describe, expect, it } from 'vitest';
import { exactSearch, exactSearchLoop } from './exact-search.js';

/** A seeded generator (mulberry32) so failures reproduce. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Vectors whose entries are small integers: every dot product is exact in float32, so ties are real. */
function integerVectors(rows: number, dimensions: number, random: () => number): Float32Array {
  return Float32Array.from({ length: rows * dimensions }, () => Math.floor(random() * 4));
}

describe('exactSearch', () => {
  it('ranks by inner product, ties by lower corpus index, and keeps all of a corpus smaller than k', async () => {
    const queries = Float32Array.from([1, 0, 0, 1]);
    const corpus = Float32Array.from([0.5, 0.5, 1, 0, 0, 1, 1, 0]);
    const results = await exactSearch({ queries, corpus, dimensions: 2, topK: 500 });
    expect(results).toEqual([
      { indexes: [1, 3, 0, 2], scores: [1, 1, 0.5, 0] },
      { indexes: [2, 0, 1, 3], scores: [1, 0.5, 0, 0] },
    ]);
  });

  it('gives the onnxruntime path (large problems) the same rankings as the plain loop, ties included', async () => {
    const random = seeded(7);
    const dimensions = 16;
    const corpus = integerVectors(3000, dimensions, random);
    const queries = integerVectors(120, dimensions, random);
    const request = { queries, corpus, dimensions, topK: 50, blockSize: 32 };
    const fast = await exactSearch(request);
    const loop = exactSearchLoop(request);
    expect(fast).toHaveLength(120);
    expect(fast).toEqual(loop);
    const tied = loop.some((ranking) =>
      ranking.scores.some((score, index) => score === ranking.scores[index + 1]),
    );
    expect(tied).toBe(true);
  });

  it('answers empty rankings for an empty corpus', async () => {
    expect(
      await exactSearch({
        queries: Float32Array.from([1, 0]),
        corpus: new Float32Array(0),
        dimensions: 2,
        topK: 5,
      }),
    ).toEqual([{ indexes: [], scores: [] }]);
  });
});
