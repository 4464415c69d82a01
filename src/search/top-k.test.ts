import { describe, expect, it } from 'vitest';
import { exactCosineSearch, normalize } from './exact-search.js';
import { topK } from './top-k.js';

describe('top-k and exact search', () => {
  it('keeps the k best, ties broken by corpus order', () => {
    expect(topK([0.1, 0.9, 0.5, 0.9, 0.2], 3)).toEqual({ indexes: [1, 3, 2], scores: [0.9, 0.9, 0.5] });
    expect(topK([1, 2], 5)).toEqual({ indexes: [1, 0], scores: [2, 1] });
  });

  it('ranks by cosine similarity', () => {
    const corpus = [new Float64Array([1, 0]), new Float64Array([1, 1]), new Float64Array([0, 1])].map(
      normalize,
    );
    // query (2, 1): cos with (1,0) = 2/√5 ≈ 0.894, with (1,1)/√2 = 3/√10 ≈ 0.949, with (0,1) = 1/√5 ≈ 0.447
    const [ranking] = exactCosineSearch([normalize(new Float64Array([2, 1]))], corpus, 3);
    expect(ranking!.indexes).toEqual([1, 0, 2]);
    expect(ranking!.scores[0]).toBeCloseTo(3 / Math.sqrt(10), 12);
  });
});
