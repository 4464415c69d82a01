import { describe, expect, it } from 'vitest';
import { passAtK, reduceEpochs } from './pass-at-k.js';

/** C(n, k) exactly. */
function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let index = 1; index <= k; index++) result = (result * BigInt(n - k + index)) / BigInt(index);
  return result;
}

/** The share of k-subsets of n attempts (c of them passing) that hold at least one pass, by enumeration. */
function bruteForce(n: number, c: number, k: number): number {
  let hit = 0;
  let all = 0;
  for (let mask = 0; mask < 1 << n; mask++) {
    let bits = 0;
    for (let bit = 0; bit < n; bit++) if (mask & (1 << bit)) bits++;
    if (bits !== k) continue;
    all++;
    // Attempts 0 … c−1 pass.
    if ((mask & ((1 << c) - 1)) !== 0) hit++;
  }
  return hit / all;
}

describe('pass@k', () => {
  it('matches the enumeration of k-subsets for every n ≤ 10', () => {
    for (let n = 1; n <= 10; n++)
      for (let c = 0; c <= n; c++)
        for (let k = 1; k <= n; k++)
          expect(passAtK(n, c, k), `n=${n} c=${c} k=${k}`).toBeCloseTo(bruteForce(n, c, k), 12);
  });

  it('matches the closed form 1 − C(n−c, k)/C(n, k) in exact arithmetic for large n', () => {
    for (const [n, c, k] of [
      [200, 3, 10],
      [200, 150, 100],
      [1000, 1, 1],
      [1000, 7, 500],
    ] as const) {
      const scale = 10n ** 30n;
      const exact = Number(scale - (choose(n - c, k) * scale) / choose(n, k)) / 1e30;
      expect(passAtK(n, c, k)).toBeCloseTo(exact, 12);
    }
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 15);
    expect(() => passAtK(3, 4, 1)).toThrow(/0 ≤ c ≤ n/);
    expect(() => passAtK(3, 1, 4)).toThrow(/1 ≤ k ≤ n/);
  });

  it('reducers: mean, majority (ties to the lower score), max, pass@k', () => {
    expect(reduceEpochs([1, 0, 1, 1], 'mean')).toBe(0.75);
    expect(reduceEpochs([1, 0, 1], 'majority')).toBe(1);
    expect(reduceEpochs([1, 0, 1, 0], 'majority')).toBe(0);
    expect(reduceEpochs([0.2, 0.7, 0.7], 'majority')).toBe(0.7);
    expect(reduceEpochs([0, 0.4, 0.2], 'max')).toBe(0.4);
    expect(reduceEpochs([1, 0, 0, 0], { passAt: 2 })).toBeCloseTo(0.5, 12);
    expect(() => reduceEpochs([], 'mean')).toThrow(/no epochs/);
  });
});
