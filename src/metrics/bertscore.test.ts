import { describe, expect, it } from 'vitest';
import { bertScoreFromEmbeddings, bertScoreFromTokens, type TokenVectors } from './bertscore.js';

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

/** BERTScore as written first: two passes, each cosine computed in both (the reference of the test below). */
function twoPassBertScore(candidate: TokenVectors, reference: TokenVectors): number[] {
  const unit = (vectors: TokenVectors['vectors']) =>
    vectors.map((vector) => {
      let sum = 0;
      for (let index = 0; index < vector.length; index++) sum += vector[index]! * vector[index]!;
      const length = Math.sqrt(sum) || 1;
      return Float64Array.from(vector as ArrayLike<number>, (value) => value / length);
    });
  const left = unit(candidate.vectors);
  const right = unit(reference.vectors);
  const dot = (a: Float64Array, b: Float64Array) => {
    let sum = 0;
    for (let index = 0; index < a.length; index++) sum += a[index]! * b[index]!;
    return sum;
  };
  const best = (from: Float64Array[], start: number, end: number, to: Float64Array[]) => {
    let total = 0;
    for (let index = start; index < end; index++) {
      let max = Number.NEGATIVE_INFINITY;
      for (const other of to) max = Math.max(max, dot(from[index]!, other));
      total += max;
    }
    return total / (end - start);
  };
  const precision = best(left, candidate.start, candidate.end, right);
  const recall = best(right, reference.start, reference.end, left);
  return [precision, recall, (2 * precision * recall) / (precision + recall)];
}

describe('BERTScore from token vectors', () => {
  it("lets special tokens be matched but averages only the texts' own tokens (hand-computed)", () => {
    // Candidate [CLS] c [SEP] with c = (1, 0); reference [CLS] r [SEP] with r = (0, 1); both [CLS] = (1, 1).
    // Precision: c's best is [CLS] of the reference, cos = 1/√2. Recall: r's best is the candidate's [CLS], 1/√2.
    const cls = Float32Array.from([1, 1]);
    const sep = Float32Array.from([-1, -1]);
    const score = bertScoreFromTokens(
      { vectors: [cls, Float32Array.from([1, 0]), sep], start: 1, end: 2 },
      { vectors: [cls, Float32Array.from([0, 1]), sep], start: 1, end: 2 },
    );
    expect(score.precision).toBeCloseTo(Math.SQRT1_2, 12);
    expect(score.recall).toBeCloseTo(Math.SQRT1_2, 12);
    expect(
      bertScoreFromTokens({ vectors: [cls, sep], start: 1, end: 1 }, { vectors: [cls], start: 0, end: 1 }).f1,
    ).toBe(0);
  });

  it('gives, computing each cosine once, what two full passes give, to the last bit', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31 - 0.5;
    };
    const text = (length: number): TokenVectors => ({
      vectors: Array.from({ length: length + 2 }, () => Float32Array.from({ length: 24 }, random)),
      start: 1,
      end: length + 1,
    });
    for (let trial = 0; trial < 40; trial++) {
      const candidate = text(1 + (trial % 9));
      const reference = text(1 + ((trial * 5) % 13));
      const once = bertScoreFromTokens(candidate, reference);
      expect([once.precision, once.recall, once.f1]).toEqual(twoPassBertScore(candidate, reference));
    }
  });
});
