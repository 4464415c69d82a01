import { describe, expect, it } from 'vitest';
import { exactHit, reciprocalRank, targetRanks } from './retrieval.js';

describe('retrieval metrics', () => {
  it('finds the first relevant rank and the rank by which every target appeared', () => {
    // ranking: x, a, y, b, a — targets {a, b}: first relevant at 2, both seen by 4.
    const ranks = targetRanks(['x', 'a', 'y', 'b', 'a'], ['a', 'b']);
    expect(ranks).toEqual({ first: 2, all: 4 });
    expect([exactHit(ranks, 1), exactHit(ranks, 3), exactHit(ranks, 4)]).toEqual([0, 0, 1]);
    expect([reciprocalRank(ranks, 1), reciprocalRank(ranks, 2), reciprocalRank(ranks, 10)]).toEqual([
      0, 0.5, 0.5,
    ]);
  });

  it('counts a duplicated corpus text as relevant wherever it appears', () => {
    // the corpus holds "a" twice: the first copy at rank 3 is a hit even if the "other" copy was meant.
    expect(targetRanks(['x', 'y', 'a', 'a'], ['a'])).toEqual({ first: 3, all: 3 });
  });

  it('handles targets missing from the ranking and rankings shorter than n', () => {
    const ranks = targetRanks(['a', 'x'], ['a', 'b']);
    expect(ranks).toEqual({ first: 1, all: null });
    expect(exactHit(ranks, 500)).toBe(0);
    expect(reciprocalRank(ranks, 500)).toBe(1);
    expect(targetRanks([], ['a'])).toEqual({ first: null, all: null });
  });
});
