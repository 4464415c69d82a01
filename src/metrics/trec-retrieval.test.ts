import { describe, expect, it } from 'vitest';
import { averagePrecisionAtK, ndcgAtK, recallAtK, relevantCount, trecEvalOrder } from './trec-retrieval.js';

// Cross-checked once by hand against trec_eval itself (usnistgov/trec_eval f4253652, built locally;
// `trec_eval -q -m ndcg_cut.1,2,5,10 -m map_cut.1,2,5,10 -m recall.1,2,5,10`): the same values, to
// its four decimals, for these rankings and judgements, the tie case in trec_eval's own order included.
describe('pytrec_eval retrieval metrics (MTEB)', () => {
  it('scores binary relevance by hand: relevant at ranks 2 and 4, a third never retrieved', () => {
    const grades = [0, 1, 0, 1, 0];
    const judged = [1, 1, 1];
    // DCG@10 = 1/log2(3) + 1/log2(5) = 0.630930 + 0.430677 = 1.061606
    // IDCG@10 (three relevant) = 1 + 0.630930 + 1/log2(4) = 2.130930 → 0.498190
    expect(ndcgAtK(grades, judged, 10)).toBeCloseTo(0.49819, 5);
    // AP@10 = (1/2 + 2/4) / 3 relevant = 1/3; AP@2 = (1/2) / 3 = 1/6 (divided by all relevant, not by min(k, 3))
    expect(averagePrecisionAtK(grades, relevantCount(judged), 10)).toBeCloseTo(1 / 3, 10);
    expect(averagePrecisionAtK(grades, 3, 2)).toBeCloseTo(1 / 6, 10);
    // Recall@1 = 0, @2 = 1/3, @10 = 2/3
    expect([1, 2, 10].map((k) => recallAtK(grades, 3, k))).toEqual([0, 1 / 3, 2 / 3]);
  });

  it('uses graded relevance as the gain (not 2^g − 1) and grade ≥ 1 as relevant', () => {
    const grades = [2, 0, 3];
    const judged = [3, 2, 1, 0];
    // DCG@10 = 2/1 + 3/log2(4) = 3.5; IDCG = 3 + 2/log2(3) + 1/2 = 4.761860 → 0.735007
    expect(ndcgAtK(grades, judged, 10)).toBeCloseTo(0.735007, 5);
    // @2: DCG = 2; IDCG = 3 + 1.261860 = 4.261860 → 0.469279
    expect(ndcgAtK(grades, judged, 2)).toBeCloseTo(0.469279, 5);
    // three judgements ≥ 1; AP@10 = (1/1 + 2/3) / 3 = 0.555556
    expect(relevantCount(judged)).toBe(3);
    expect(averagePrecisionAtK(grades, 3, 10)).toBeCloseTo(5 / 9, 10);
  });

  it('gives 0 to a query with nothing relevant, and stops at the end of a short ranking', () => {
    expect(ndcgAtK([0, 0], [], 10)).toBe(0);
    expect(averagePrecisionAtK([0, 0], 0, 10)).toBe(0);
    expect(recallAtK([1], 0, 10)).toBe(0);
    // every relevant item first: 1 at every cut-off however long the ranking
    expect(ndcgAtK([1, 1], [1, 1], 500)).toBeCloseTo(1, 12);
    expect(averagePrecisionAtK([1, 1], 2, 500)).toBe(1);
  });

  it("orders ties as pytrec_eval does (document id descending, by bytes), unlike medbench's corpus order", () => {
    // d2 and d3 tie at 0.5; only d2 is relevant.
    const ids = ['d1', 'd2', 'd3'];
    const scores = [0.9, 0.5, 0.5];
    expect(trecEvalOrder(ids, scores)).toEqual([0, 2, 1]);
    const relevant = (order: number[]) => order.map((position) => (ids[position] === 'd2' ? 1 : 0));
    // medbench (corpus order): d1, d2, d3 → AP@10 = 1/2, nDCG@10 = 1/log2(3)
    expect(averagePrecisionAtK(relevant([0, 1, 2]), 1, 10)).toBe(0.5);
    expect(ndcgAtK(relevant([0, 1, 2]), [1], 10)).toBeCloseTo(0.63093, 5);
    // pytrec_eval: d1, d3, d2 → AP@10 = 1/3, nDCG@10 = 1/log2(4) = 0.5
    expect(averagePrecisionAtK(relevant(trecEvalOrder(ids, scores)), 1, 10)).toBeCloseTo(1 / 3, 12);
    expect(ndcgAtK(relevant(trecEvalOrder(ids, scores)), [1], 10)).toBe(0.5);
    // strcmp, not numbers: "d9" > "d10", so d9 comes first
    expect(trecEvalOrder(['d10', 'd9'], [1, 1])).toEqual([1, 0]);
  });
});
