import { describe, expect, it } from 'vitest';
import { binaryBootstrapInterval, bootstrapMean, mcnemarExact, pairedBootstrap } from './statistics.js';

describe('viewer statistics', () => {
  it('McNemar exact p-values match the binomial by hand', () => {
    // 1 vs 5 discordant: P(X ≤ 1), X ~ Bin(6, 1/2) = (1 + 6)/64; two-sided 14/64.
    expect(mcnemarExact(1, 5)).toBeCloseTo(14 / 64, 12);
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
    // 0 vs 10: 2 · (1/2)^10.
    expect(mcnemarExact(0, 10)).toBeCloseTo(2 / 1024, 12);
  });

  it('gives 0/1 scores the exact binomial bootstrap interval, close to resampling', () => {
    // Bin(10, 0.7): P(X ≤ 4) = 0.0473 ≥ 0.025 > P(X ≤ 3) = 0.0106; P(X ≤ 9) = 0.9718 < 0.975 ≤ P(X ≤ 10).
    expect(binaryBootstrapInterval(7, 10)).toEqual({ low: 0.4, high: 1 });
    const values = Array.from({ length: 200 }, (_, index) => (index % 4 === 0 ? 0 : 1));
    const exact = bootstrapMean(values, 1);
    const resampled = bootstrapMean(
      values.map((value) => value * 0.999999),
      1,
      4000,
    );
    expect(exact.low).toBeCloseTo(resampled.low, 1);
    expect(exact.high).toBeCloseTo(resampled.high, 1);
  });

  it('bootstrap intervals are seeded, contain the mean, and collapse for constant data', () => {
    const values = [1, 0, 1, 1, 0, 1, 1, 1, 0, 0.5];
    const first = bootstrapMean(values, 42);
    expect(first).toEqual(bootstrapMean(values, 42));
    expect(first.mean).toBeCloseTo(0.65, 12);
    expect(first.low).toBeLessThan(0.65);
    expect(first.high).toBeGreaterThan(0.65);
    expect(first.low).toBeGreaterThanOrEqual(0.3);
    expect(bootstrapMean([1, 1, 1], 1)).toEqual({ mean: 1, n: 3, low: 1, high: 1 });
  });

  it('a paired bootstrap finds a consistent improvement and no difference in noise', () => {
    expect(
      pairedBootstrap(
        Array.from({ length: 40 }, () => 0.1),
        3,
      ).p,
    ).toBe(0);
    expect(pairedBootstrap([0.5, -0.5, 0.5, -0.5, 0.5, -0.5], 3).p).toBeGreaterThan(0.5);
  });
});
