import { describe, expect, it } from 'vitest';
import { corpusTextCounts, mtebQueryScores } from './mteb-query-scores.js';

describe("MTEB's metrics of a MedEureka query (relevance judged by text)", () => {
  it('makes every copy of a target text a relevant item, retrieved or not', () => {
    // corpus: a twice, b once → three relevant items; the ranking finds them at ranks 2, 4 and 5.
    const counts = corpusTextCounts(['a', 'x', 'b', 'y', 'a', 'c']);
    const scores = mtebQueryScores(['x', 'a', 'y', 'a', 'b'], ['a', 'b'], counts);
    // nDCG@5 = (1/log2 3 + 1/log2 5 + 1/log2 6) / (1 + 1/log2 3 + 1/2) = 1.448462 / 2.130930 = 0.679734
    expect(scores['ndcg@5']).toBeCloseTo(0.679734, 5);
    // MAP@5 = (1/2 + 2/4 + 3/5) / 3 = 0.533333; MAP@1 = 0
    expect(scores['map@5']).toBeCloseTo(1.6 / 3, 10);
    expect(scores['map@1']).toBe(0);
    // Recall@1 = 0, @5 = 3/3, and stays 1 at 500
    expect([scores['recall@1'], scores['recall@5'], scores['recall@500']]).toEqual([0, 1, 1]);
    expect(Object.keys(scores)).toHaveLength(24);
  });

  it('counts only the targets the corpus holds', () => {
    // z is nowhere in the corpus: one relevant item (a), found first.
    const scores = mtebQueryScores(['a', 'x'], ['a', 'z'], corpusTextCounts(['a', 'x']));
    expect([scores['ndcg@10'], scores['map@10'], scores['recall@10']]).toEqual([1, 1, 1]);
  });
});
