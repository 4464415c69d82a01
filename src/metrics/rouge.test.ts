import { describe, expect, it } from 'vitest';
import { lcsLength, rouge, rougeTokens } from './rouge.js';

describe('ROUGE (rouge_score defaults)', () => {
  it('tokenises: lower-case, non-alphanumeric runs separate, no stemming', () => {
    expect(rougeTokens("The patient's BP: 140/90 mmHg — stable!")).toEqual([
      'the',
      'patient',
      's',
      'bp',
      '140',
      '90',
      'mmhg',
      'stable',
    ]);
    expect(rougeTokens('naïve café')).toEqual(['na', 've', 'caf']);
    expect(rougeTokens('running runs')).toEqual(['running', 'runs']);
  });

  it('matches hand-computed scores', () => {
    // prediction: the cat sat on the mat (6 tokens); reference: the cat is on the mat (6 tokens)
    // unigrams: the×2, cat, on, mat overlap → 5; P = R = 5/6
    // bigrams: pred {the cat, cat sat, sat on, on the, the mat}; ref {the cat, cat is, is on, on the, the mat}
    //   overlap 3 of 5 each → P = R = 0.6
    // LCS: the cat on the mat = 5 → P = R = 5/6
    const scores = rouge('The cat sat on the mat.', 'the cat is on the mat');
    expect(scores.rouge1.f).toBeCloseTo(5 / 6, 12);
    expect(scores.rouge2.f).toBeCloseTo(0.6, 12);
    expect(scores.rougeL.f).toBeCloseTo(5 / 6, 12);
  });

  it('clips repeated n-grams and handles unequal lengths', () => {
    // prediction "a a a a" vs reference "a b": unigram overlap min(4, 1) = 1; P = 1/4, R = 1/2, F = 1/3
    const scores = rouge('a a a a', 'a b');
    expect(scores.rouge1).toEqual({ precision: 0.25, recall: 0.5, f: 1 / 3 });
    // bigrams: pred {a a ×3}, ref {a b}: no overlap
    expect(scores.rouge2.f).toBe(0);
    expect(scores.rougeL.f).toBeCloseTo(1 / 3, 12);
  });

  it('scores 0 when either side is empty', () => {
    expect(rouge('', 'some reference').rougeL.f).toBe(0);
    expect(rouge('!!!', '').rouge1.f).toBe(0);
  });

  it('computes LCS lengths', () => {
    expect(lcsLength(['a', 'b', 'c', 'b', 'd', 'a', 'b'], ['b', 'd', 'c', 'a', 'b', 'a'])).toBe(4);
    expect(lcsLength(['x'], ['y'])).toBe(0);
  });
});
