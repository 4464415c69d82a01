import { describe, expect, it } from 'vitest';
import {
  additiveBootstrap,
  bootstrapMean,
  bootstrapMicroScores,
  bootstrapRanks,
  clusterBootstrap,
  holmAdjust,
  mcnemarExact,
  meanInterval,
  meanOfMeansInterval,
  microScores,
  minimumDetectableDifference,
  normalQuantile,
  pairedBootstrap,
  ranksOf,
  resampledUnits,
  stratumOf,
  wilsonInterval,
} from './index.js';

describe('intervals computed by hand', () => {
  it('Wilson: 7/10, 0/20, 20/20 and 45/50 at 95%', () => {
    // (p̂ + z²/2n ± z√(p̂q̂/n + z²/4n²)) / (1 + z²/n), z = 1.959964: 7/10 → [0.396778, 0.892209].
    const seven = wilsonInterval(7, 10);
    expect(seven.estimate).toBe(0.7);
    expect(seven.lower).toBeCloseTo(0.3967781475, 8);
    expect(seven.upper).toBeCloseTo(0.8922087326, 8);
    expect(seven).toMatchObject({
      method: 'wilson',
      level: 0.95,
      resamples: null,
      seed: null,
      units: 10,
      n: 10,
    });
    expect(wilsonInterval(0, 20)).toMatchObject({ lower: 0, estimate: 0 });
    expect(wilsonInterval(0, 20).upper).toBeCloseTo(0.1611251581, 8);
    expect(wilsonInterval(20, 20).lower).toBeCloseTo(0.8388748419, 8);
    expect(wilsonInterval(20, 20).upper).toBe(1);
    expect(wilsonInterval(45, 50).lower).toBeCloseTo(0.7863976856, 8);
    expect(wilsonInterval(45, 50).upper).toBeCloseTo(0.9565242351, 8);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 8);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306167813, 8);
  });

  it('exact McNemar: two-sided binomial tails', () => {
    // 1 vs 5 discordant: P(X ≤ 1), X ~ Bin(6, 1/2) = (1 + 6)/64; two-sided 14/64.
    expect(mcnemarExact(1, 5)).toBeCloseTo(14 / 64, 12);
    expect(mcnemarExact(5, 1)).toBeCloseTo(14 / 64, 12);
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
    // 0 vs 10: 2 · (1/2)^10; 2 vs 8: 2 · (1 + 10 + 45)/1024.
    expect(mcnemarExact(0, 10)).toBeCloseTo(2 / 1024, 12);
    expect(mcnemarExact(2, 8)).toBeCloseTo(112 / 1024, 12);
  });

  it('a paired bootstrap with seed 7 and B = 3: the resamples and the interval by hand', () => {
    // mulberry32(7) draws ⌊4u⌋: [0,0,3,2], [2,1,1,0], [2,2,1,0].
    expect([...resampledUnits(4, 3, 7)].length).toBe(3);
    expect(Array.from(resampledUnits(4, 3, 7), (drawn) => [...drawn])).toEqual([
      [0, 0, 3, 2],
      [2, 1, 1, 0],
      [2, 2, 1, 0],
    ]);
    // Differences b − a = [0, 1, 0, 1]: replicates 1/4, 2/4, 1/4; sorted [.25, .25, .5].
    // 2.5%: position 0.05 → .25; 97.5%: position 1.95 → .25 + .95 · .25 = .4875. None ≤ 0: p = 0.
    const result = pairedBootstrap([1, 0, 1, 0], [1, 1, 1, 1], { seed: 7, resamples: 3 });
    expect(result).toMatchObject({
      estimate: 0.5,
      lower: 0.25,
      method: 'bootstrap',
      resamples: 3,
      seed: 7,
      p: 0,
    });
    expect(result.upper).toBeCloseTo(0.4875, 12);
    // Both runs see the same units: equal runs never differ.
    expect(pairedBootstrap([1, 0, 0.5], [1, 0, 0.5])).toMatchObject({
      estimate: 0,
      lower: 0,
      upper: 0,
      p: 1,
    });
    expect(pairedBootstrap([0.5, -0.5, 0.5, -0.5, 0.5, -0.5], [0, 0, 0, 0, 0, 0]).p).toBeGreaterThan(0.5);
  });

  it('Holm: step-down adjusted p-values in the input order', () => {
    // Sorted .005·4 = .02, .01·3 = .03, .03·2 = .06, .04·1 = .04 → running max .06.
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    expect(adjusted.map((p) => Number(p.toFixed(12)))).toEqual([0.03, 0.06, 0.06, 0.02]);
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('minimum detectable difference: (z.975 + z.8) · sd / √n', () => {
    expect(minimumDetectableDifference({ n: 100, sd: 0.5 })).toBeCloseTo(0.1400792609, 8);
    expect(minimumDetectableDifference({ n: 0, sd: 0.5 })).toBe(Number.POSITIVE_INFINITY);
  });

  it('ranks: ties share their mean rank; bootstrap rank intervals separate clear gaps only', () => {
    expect(ranksOf([0.5, 0.9, 0.5, 0.1])).toEqual([2.5, 1, 2.5, 4]);
    expect(ranksOf([0.5, 0.9, 0.1], false)).toEqual([2, 3, 1]);
    const samples = 200;
    const strong = Array.from({ length: samples }, (_, index) => (index % 10 < 9 ? 1 : 0));
    const close = Array.from({ length: samples }, (_, index) => (index % 2 === 0 ? 1 : 0));
    const closer = Array.from({ length: samples }, (_, index) =>
      index % 2 === 1 || index % 50 === 0 ? 1 : 0,
    );
    const [first, second, third] = bootstrapRanks([strong, close, closer]);
    expect(first).toMatchObject({ rank: 1, lower: 1, upper: 1 });
    expect(third!.rank).toBe(2);
    expect(second!.rank).toBe(3);
    expect([second!.lower, second!.upper]).toEqual([2, 3]);
    expect([third!.lower, third!.upper]).toEqual([2, 3]);
  });
});

describe('bootstrap', () => {
  it('is seeded, keeps the point estimate, and collapses for constant data or one unit', () => {
    const values = [1, 0, 1, 1, 0, 1, 1, 1, 0, 0.5];
    const first = bootstrapMean(values, { seed: 42 });
    expect(first).toEqual(bootstrapMean(values, { seed: 42 }));
    expect(first).not.toEqual(bootstrapMean(values, { seed: 43 }));
    expect(first.estimate).toBeCloseTo(0.65, 12);
    expect(first.lower).toBeLessThan(0.65);
    expect(first.upper).toBeGreaterThan(0.65);
    expect(bootstrapMean([0.5, 0.5, 0.5])).toMatchObject({ estimate: 0.5, lower: 0.5, upper: 0.5 });
    expect(bootstrapMean([1, 0, 1], { units: ['a', 'a', 'a'] })).toMatchObject({
      method: 'none',
      units: 1,
      n: 3,
    });
    expect(bootstrapMean([]).estimate).toBeNaN();
    expect(() => bootstrapMean([1], { resamples: 0 })).toThrow(/positive integer/);
    expect(() => bootstrapMean([1, 0], { units: ['a'] })).toThrow(/1 unit labels for 2 values/);
  });

  it('clusters: a cluster is drawn whole, so duplicated rows widen nothing but cluster effects do', () => {
    const values = [1, 0, 1, 1, 0, 0.5, 1, 0];
    const plain = bootstrapMean(values, { seed: 5 });
    // Each value twice, in one unit per pair: the same resamples, the same interval.
    const doubled = bootstrapMean(
      values.flatMap((value) => [value, value]),
      { seed: 5, units: values.flatMap((_, index) => [`u${index}`, `u${index}`]) },
    );
    expect(doubled).toMatchObject({
      estimate: plain.estimate,
      lower: plain.lower,
      upper: plain.upper,
      units: 8,
      n: 16,
    });
    // Unclustered, the doubled data look twice as large and the interval narrows.
    const naive = bootstrapMean(
      values.flatMap((value) => [value, value]),
      { seed: 5 },
    );
    expect(naive.upper - naive.lower).toBeLessThan(plain.upper - plain.lower);
  });

  it('the additive bootstrap equals the row bootstrap on the same draws (micro F1)', () => {
    const rows = [
      { tp: 2, fp: 1, fn: 0 },
      { tp: 0, fp: 2, fn: 1 },
      { tp: 3, fp: 0, fn: 2 },
      { tp: 1, fp: 1, fn: 1 },
      { tp: 4, fp: 0, fn: 0 },
    ];
    const units = ['p', 'q', 'p', 'r', 's'];
    const fast = bootstrapMicroScores(rows, { units, seed: 9, resamples: 300 });
    const grouped = [[rows[0]!, rows[2]!], [rows[1]!], [rows[3]!], [rows[4]!]];
    const f1 = (picked: readonly (typeof rows)[number][]) =>
      microScores(
        picked.reduce((sum, row) => ({ tp: sum.tp + row.tp, fp: sum.fp + row.fp, fn: sum.fn + row.fn })),
      ).f1;
    expect(clusterBootstrap(grouped, f1, { seed: 9, resamples: 300 })).toEqual(fast.f1);
    // 10 tp, 4 fp, 4 fn: P = R = F1 = 10/14.
    expect(fast.f1.estimate).toBeCloseTo(10 / 14, 12);
    expect(fast.precision.estimate).toBeCloseTo(10 / 14, 12);
    expect(fast.f1).toMatchObject({ units: 4, n: 5, method: 'bootstrap', resamples: 300, seed: 9 });
    expect(additiveBootstrap([[1, 1]], (sums) => sums[0]! / sums[1]!).method).toBe('none');
  });

  it('meanInterval: Wilson for independent 0/1 scores, the cluster bootstrap otherwise', () => {
    expect(meanInterval([1, 0, 1, 1]).method).toBe('wilson');
    expect(meanInterval([1, 0, 1, 1], { units: ['a', 'b', 'c', 'd'] }).method).toBe('wilson');
    expect(meanInterval([1, 0, 1, 1], { units: ['a', 'a', 'c', 'd'] }).method).toBe('bootstrap');
    expect(meanInterval([1, 0.5, 1, 1]).method).toBe('bootstrap');
    // All wrong, 3 needles × 2: the bootstrap would say [0, 0]; Wilson at 3 units says [0, 0.5615].
    const allWrong = meanInterval([0, 0, 0, 0, 0, 0], { units: ['a', 'a', 'b', 'b', 'c', 'c'] });
    expect(allWrong).toMatchObject({ method: 'wilson', estimate: 0, lower: 0, units: 3, n: 6 });
    expect(allWrong.upper).toBeCloseTo(wilsonInterval(0, 3).upper, 12);
    expect(meanInterval([1, 1, 1, 1], { units: ['a', 'a', 'b', 'b'] })).toMatchObject({
      upper: 1,
      units: 2,
      n: 4,
    });
  });

  it('a macro average: strata resampled on their own, the average of their replicates', () => {
    const first = stratumOf([1, 0, 1, 1], { seed: 7, resamples: 3 });
    // Seed 7 draws [0,0,3,2], [2,1,1,0], [2,2,1,0] of [1,0,1,1]:
    // round 1: 1,1,1,1 → 1; round 2: 1,0,0,1 → .5; round 3: 1,1,0,1 → .75.
    expect([...first.replicates]).toEqual([1, 0.5, 0.75]);
    const second = stratumOf([0, 0], { seed: 8, resamples: 3 });
    const average = meanOfMeansInterval([first, second], { resamples: 3 });
    // Replicates (1 + 0)/2, (.5 + 0)/2, (.75 + 0)/2 = .5, .25, .375; sorted .25, .375, .5.
    expect(average.estimate).toBeCloseTo(0.375, 12);
    expect(average.lower).toBeCloseTo(0.25 + 0.05 * 0.125, 12);
    expect(average.upper).toBeCloseTo(0.375 + 0.95 * 0.125, 12);
    expect(average).toMatchObject({ units: 6, n: 6, method: 'bootstrap' });
    expect(() => meanOfMeansInterval([first], { resamples: 4 })).toThrow(/not B = 4/);
  });
});
