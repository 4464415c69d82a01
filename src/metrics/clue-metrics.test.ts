import { describe, expect, it } from 'vitest';
import { extractIcd10Codes, icd10ApproximateMatch, icd10ExactMatch, validCodeRate } from './icd10.js';
import { mean, setF1 } from './set-f1.js';

describe('set F1', () => {
  it('follows the empty-set conventions', () => {
    expect(setF1(new Set(), new Set(['a']))).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(setF1(new Set(['a']), new Set())).toEqual({ precision: 0, recall: 0, f1: 0 });
    // 2 hits of 3 predicted and 4 expected: P = 2/3, R = 1/2, F1 = 2·(1/3)/(7/6) = 4/7
    const score = setF1(new Set(['a', 'b', 'x']), new Set(['a', 'b', 'c', 'd']));
    expect(score.precision).toBeCloseTo(2 / 3, 12);
    expect(score.recall).toBe(0.5);
    expect(score.f1).toBeCloseTo(4 / 7, 12);
    expect(mean([])).toBe(0);
  });
});

describe('ICD-10', () => {
  it('extracts codes with the spec pattern and removes dots', () => {
    expect(
      extractIcd10Codes('Dx: I21.4 (NSTEMI), E11.9, also N17.9; history U07.1, K35.80 and 125.47'),
    ).toEqual(['I214', 'E119', 'N179', 'K3580']);
    expect(extractIcd10Codes('lower-case e11.9 is not a code, nor is I2')).toEqual([]);
  });

  it('scores exact matches over lists and category matches over sets, as the scripts do', () => {
    // predicted [I214, E119, J189]; gold [I214, E1165]: EM hits 1 → P 1/3, R 1/2, F1 0.4
    const predicted = ['I214', 'E119', 'J189'];
    const gold = ['I214', 'E1165'];
    expect(icd10ExactMatch(predicted, gold).f1).toBeCloseTo(0.4, 12);
    // categories {I21, E11, J18} vs {I21, E11}: P 2/3, R 1, F1 0.8
    expect(icd10ApproximateMatch(predicted, gold).f1).toBeCloseTo(0.8, 12);
    // A repeated prediction counts twice: [I214, I214, J189] → P 2/3, R 1/2, F1 4/7 (a set would give P 1/2).
    expect(icd10ExactMatch(['I214', 'I214', 'J189'], gold)).toEqual({
      precision: 2 / 3,
      recall: 0.5,
      f1: expect.closeTo(4 / 7, 12),
    });
    expect(icd10ExactMatch([], gold)).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it('rates valid codes per item', () => {
    const table = new Set(['I214', 'E119']);
    expect(validCodeRate(['I214', 'E119', 'Z999', 'I214'], table)).toBe(0.75);
    expect(validCodeRate([], table)).toBe(0);
  });
});
