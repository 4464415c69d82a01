import { describe, expect, it } from 'vitest';
import { bertScoreFromEmbeddings } from './bertscore.js';

describe('BERTScore from embeddings', () => {
  it('matches hand-computed greedy cosine matching', () => {
    // candidate tokens: c1 = (1, 0), c2 = (0, 1); reference: r1 = (1, 0), r2 = (1, 1)/√2 (unnormalised (2, 2)).
    // cos(c1, r1) = 1, cos(c1, r2) = 1/√2, cos(c2, r1) = 0, cos(c2, r2) = 1/√2.
    // precision = (max(1, 1/√2) + max(0, 1/√2)) / 2 = (1 + 1/√2) / 2
    // recall    = (max(1, 0) + max(1/√2, 1/√2)) / 2 = (1 + 1/√2) / 2
    const score = bertScoreFromEmbeddings(
      [
        [1, 0],
        [0, 1],
      ],
      [
        [1, 0],
        [2, 2],
      ],
    );
    const expected = (1 + Math.SQRT1_2) / 2;
    expect(score.precision).toBeCloseTo(expected, 12);
    expect(score.recall).toBeCloseTo(expected, 12);
    expect(score.f1).toBeCloseTo(expected, 12);
  });

  it('is asymmetric in precision and recall', () => {
    // One candidate token equal to one of two orthogonal reference tokens: P = 1, R = (1 + 0) / 2, F1 = 2/3.
    const score = bertScoreFromEmbeddings(
      [[0, 3]],
      [
        [0, 1],
        [1, 0],
      ],
    );
    expect([score.precision, score.recall]).toEqual([1, 0.5]);
    expect(score.f1).toBeCloseTo(2 / 3, 12);
    expect(bertScoreFromEmbeddings([], [[1, 0]]).f1).toBe(0);
  });
});
