import { describe, expect, it } from 'vitest';
import { seededRandom } from '../uncertainty/index.js';
import {
  cohenKappa,
  criterionAgreement,
  KAPPA_UNDEFINED_LIMIT,
  kappaOfTable,
  kappaWeightMatrix,
} from './index.js';

/** Two raters' grades from a 2 × 2 table of counts [yes/yes, yes/no, no/yes, no/no]. */
function fromTable([yesYes, yesNo, noYes, noNo]: [number, number, number, number]) {
  const pairs = [
    ...Array<[string, string]>(yesYes).fill(['yes', 'yes']),
    ...Array<[string, string]>(yesNo).fill(['yes', 'no']),
    ...Array<[string, string]>(noYes).fill(['no', 'yes']),
    ...Array<[string, string]>(noNo).fill(['no', 'no']),
  ];
  return { first: pairs.map((pair) => pair[0]), second: pairs.map((pair) => pair[1]) };
}

describe("Cohen's kappa", () => {
  it('the worked example of Wikipedia\'s "Cohen\'s kappa": 50 grant proposals, κ = 0.4', () => {
    // p_o = (20 + 15)/50 = 0.7; A says yes 25/50, B 30/50: p_e = 0.5·0.6 + 0.5·0.4 = 0.5; κ = 0.2/0.5.
    const { first, second } = fromTable([20, 5, 10, 15]);
    const kappa = cohenKappa(first, second);
    expect(kappa.estimate).toBeCloseTo(0.4, 12);
    expect(kappa.observedAgreement).toBeCloseTo(0.7, 12);
    expect(kappa.chanceAgreement).toBeCloseTo(0.5, 12);
    expect(kappa).toMatchObject({ method: 'bootstrap', resamples: 1000, units: 50, n: 50, weights: 'none' });
    expect(kappa.lower).toBeLessThan(0.4);
    expect(kappa.upper).toBeGreaterThan(0.4);
  });

  it("Wikipedia's two tables of equal agreement (p_o = 0.6): κ = 0.1304 and 0.2593", () => {
    // 45/15/25/15: p_e = 0.6·0.7 + 0.4·0.3 = 0.54, κ = 0.06/0.46; 25/35/5/35: p_e = 0.46, κ = 0.14/0.54.
    const balanced = fromTable([45, 15, 25, 15]);
    const skewed = fromTable([25, 35, 5, 35]);
    expect(cohenKappa(balanced.first, balanced.second).estimate).toBeCloseTo(0.06 / 0.46, 12);
    expect(cohenKappa(skewed.first, skewed.second).estimate).toBeCloseTo(0.14 / 0.54, 12);
  });

  // Twelve items graded 1–4. By hand: 7 of 12 agree; margins (3, 3, 4, 2) and (3, 3, 3, 3):
  // p_e = 36/144, κ = (7/12 − 1/4)/(3/4) = 4/9. The weighted values from numpy by Cohen's (1968)
  // formula 1 − Σ w·O / Σ w·E (a 12-line script, independent of this code).
  const first = [1, 2, 3, 4, 2, 3, 3, 1, 4, 2, 3, 1];
  const second = [1, 3, 3, 4, 2, 2, 4, 2, 4, 1, 3, 1];

  it('weighted kappa of ordinal grades: unweighted 4/9, linear 0.655172, quadratic 0.821429', () => {
    expect(cohenKappa(first, second).estimate).toBeCloseTo(4 / 9, 12);
    expect(cohenKappa(first, second, { weights: 'linear' }).estimate).toBeCloseTo(0.6551724137931034, 12);
    expect(cohenKappa(first, second, { weights: 'quadratic' }).estimate).toBeCloseTo(0.8214285714285714, 12);
    // Strings need their order given; the same grades as text give the same kappa.
    const text = (values: number[]) =>
      values.map((value) => ['poor', 'fair', 'good', 'excellent'][value - 1]!);
    const categories = ['poor', 'fair', 'good', 'excellent'];
    expect(cohenKappa(text(first), text(second), { weights: 'quadratic', categories }).estimate).toBeCloseTo(
      0.8214285714285714,
      12,
    );
    expect(() => cohenKappa(text(first), text(second), { weights: 'linear' })).toThrow(/options\.categories/);
  });

  it('the weight matrices, and a 2 × 2 table where every weighting is the same', () => {
    expect([...kappaWeightMatrix(3, 'linear')]).toEqual([0, 0.5, 1, 0.5, 0, 0.5, 1, 0.5, 0]);
    expect([...kappaWeightMatrix(3, 'quadratic')]).toEqual([0, 0.25, 1, 0.25, 0, 0.25, 1, 0.25, 0]);
    expect([...kappaWeightMatrix(2, 'none')]).toEqual([0, 1, 1, 0]);
    const table = [20, 5, 10, 15];
    for (const weights of ['none', 'linear', 'quadratic'] as const)
      expect(kappaOfTable(table, kappaWeightMatrix(2, weights))).toBeCloseTo(0.4, 12);
  });

  it('the interval is the shared bootstrap: reproducible by seed, clustered by units', () => {
    const again = cohenKappa(first, second, { seed: 7, resamples: 500 });
    expect(cohenKappa(first, second, { seed: 7, resamples: 500 })).toEqual(again);
    expect(cohenKappa(first, second, { seed: 8, resamples: 500 }).lower).not.toBe(again.lower);
    const units = first.map((_, index) => `patient-${Math.floor(index / 3)}`);
    expect(cohenKappa(first, second, { units })).toMatchObject({ units: 4, n: 12 });
  });

  it('complete agreement gives [1, 1]; one shared category leaves kappa undefined (NaN), never a number', () => {
    const grades = [1, 0, 1, 1, 0, 0, 1, 0, 1, 0];
    const perfect = cohenKappa(grades, grades);
    expect(perfect).toMatchObject({ estimate: 1, lower: 1, upper: 1, method: 'bootstrap' });
    // Two resamples in a thousand draw one category only (2 · 0.5¹⁰): left out of the percentiles.
    expect(perfect.undefinedResamples).toBeLessThan(KAPPA_UNDEFINED_LIMIT);
    const constant = cohenKappa(['yes', 'yes', 'yes'], ['yes', 'yes', 'yes']);
    expect(constant.estimate).toBeNaN();
    expect(constant.observedAgreement).toBe(1);
  });

  it('a category one rater never gives and the other gives once: kappa 0, and no interval (undefined in about a third of resamples)', () => {
    // The judge never marks the criterion met; people do on 1 of 19 items: p_o = p_e = 18/19.
    const judge = new Array<boolean>(19).fill(false);
    const people = judge.map((_, index) => index === 7);
    const rare = cohenKappa(judge, people, { categories: [false, true] });
    expect(rare.estimate).toBeCloseTo(0, 12);
    // A resample leaves that item out with probability (18/19)¹⁹ ≈ 0.358.
    expect(rare.undefinedResamples).toBeGreaterThan(0.3);
    expect(rare.undefinedResamples).toBeLessThan(0.42);
    expect(rare).toMatchObject({ method: 'none' });
    expect(rare.lower).toBeNaN();
    expect(rare.upper).toBeNaN();
  });

  it('refuses grades of different items and grades outside the categories', () => {
    expect(() => cohenKappa([1, 2], [1])).toThrow(/same items: got 2 and 1/);
    expect(() => cohenKappa([1, 7], [1, 2], { categories: [1, 2, 3] })).toThrow(
      /first rater's grade 7 \(item 1\)/,
    );
    expect(() => cohenKappa([1, 2], [1, 2], { units: ['a'] })).toThrow(/1 unit labels for 2 items/);
  });

  it('the bootstrap interval covers the population kappa ≈ 95% (κ = 0.6, 100 items)', () => {
    // Cells yes/yes 0.4, yes/no 0.1, no/yes 0.1, no/no 0.4: p_o = 0.8, p_e = 0.5, κ = 0.6.
    const scale = Math.max(1, Number(process.env.MEDBENCH_FUZZ_SCALE ?? 1) || 1);
    const datasets = Math.round(200 * scale);
    const random = seededRandom(11);
    let covered = 0;
    for (let dataset = 0; dataset < datasets; dataset++) {
      const draws = Array.from({ length: 100 }, () => random());
      const a = draws.map((u) => (u < 0.5 ? 1 : 0));
      const b = draws.map((u) => (u < 0.4 || (u >= 0.5 && u < 0.6) ? 1 : 0));
      const { lower, upper } = cohenKappa(a, b, { resamples: 300, seed: dataset });
      if (lower <= 0.6 && 0.6 <= upper) covered++;
    }
    // Four binomial standard errors at 95%, plus 2 points for the percentile bootstrap's small-sample bias.
    expect(Math.abs(covered / datasets - 0.95)).toBeLessThan(4 * Math.sqrt((0.95 * 0.05) / datasets) + 0.02);
  });
});

describe('agreement per rubric criterion', () => {
  it('kappa, agreement and rates per criterion, in order of appearance', () => {
    // "cites-dose": judge and human agree on every item (κ = 1). "no-hallucination": the Wikipedia
    // table at a fifth (4/1/2/3): p_o = 0.7, judge says met 5/10, people 6/10, p_e = 0.5, κ = 0.4.
    const { first, second } = fromTable([4, 1, 2, 3]);
    const grades = first.flatMap((judge, index) => [
      {
        criterion: 'no-hallucination',
        item: `s${index}`,
        judge: judge === 'yes',
        human: second[index] === 'yes',
      },
      { criterion: 'cites-dose', item: `s${index}`, judge: index % 3 === 0, human: index % 3 === 0 },
    ]);
    const [hallucination, dose] = criterionAgreement(grades, { resamples: 200 });
    expect(hallucination).toMatchObject({
      criterion: 'no-hallucination',
      n: 10,
      items: 10,
      judgeRate: 0.5,
      humanRate: 0.6,
    });
    expect(hallucination!.observedAgreement).toBeCloseTo(0.7, 12);
    expect(hallucination!.kappa.estimate).toBeCloseTo(0.4, 12);
    expect(dose).toMatchObject({
      criterion: 'cites-dose',
      observedAgreement: 1,
      kappa: { estimate: 1, lower: 1, upper: 1 },
    });
  });
});
