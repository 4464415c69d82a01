import { additiveReplicates, percentileInterval, totalsOf } from './cluster-bootstrap.js';
import type { Interval } from './interval.js';
import type { ClusterOptions } from './mean-interval.js';

/** A difference's interval with a two-sided p-value for "no difference". */
export interface PairedInterval extends Interval {
  p: number;
}

/**
 * Two-sided bootstrap p-value of a null value: 2 · min(share of replicates ≤ null, share ≥ null),
 * capped at 1. Its resolution is 1/B.
 */
export function bootstrapPValue(replicates: ArrayLike<number>, nullValue = 0): number {
  let below = 0;
  let above = 0;
  for (let index = 0; index < replicates.length; index++) {
    if (replicates[index]! <= nullValue) below++;
    if (replicates[index]! >= nullValue) above++;
  }
  return Math.min(1, (2 * Math.min(below, above)) / replicates.length);
}

/**
 * Paired (cluster) bootstrap of a difference of statistics of additive unit totals: both
 * statistics read the same resampled units. `unitSums[i]` holds unit i's sums for A and B
 * side by side; `difference` maps the totals to B − A.
 */
export function pairedAdditiveBootstrap(
  unitSums: ReadonlyArray<ArrayLike<number>>,
  difference: (sums: Float64Array) => number,
  options: ClusterOptions & { n?: number } = {},
): PairedInterval {
  const { interval, replicates } = percentileInterval(
    {
      units: unitSums.length,
      n: options.n ?? unitSums.length,
      estimate: () => difference(totalsOf(unitSums)),
      replicates: (settings) => additiveReplicates(unitSums, difference, settings),
    },
    options,
  );
  return { ...interval, p: replicates ? bootstrapPValue(replicates) : 1 };
}

/**
 * Paired bootstrap of mean(b) − mean(a) over the same samples (clustered by `units`): each
 * resample draws units once and averages both runs over them; p is `bootstrapPValue` at 0.
 */
export function pairedBootstrap(
  a: readonly number[],
  b: readonly number[],
  options: ClusterOptions = {},
): PairedInterval {
  if (a.length !== b.length)
    throw new RangeError(`paired scores differ in length: ${a.length} and ${b.length}`);
  if (options.units && options.units.length !== a.length)
    throw new RangeError(`${options.units.length} unit labels for ${a.length} pairs`);
  const byUnit = new Map<string, number[]>();
  a.forEach((value, index) => {
    const key = options.units ? options.units[index]! : String(index);
    const sums = byUnit.get(key) ?? byUnit.set(key, [0, 0, 0]).get(key)!;
    sums[0]! += value;
    sums[1]! += b[index]!;
    sums[2]! += 1;
  });
  return pairedAdditiveBootstrap([...byUnit.values()], (sums) => (sums[1]! - sums[0]!) / sums[2]!, {
    ...options,
    n: a.length,
  });
}

/** log of n choose k. */
export function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let index = 1; index <= k; index++) sum += Math.log(n - k + index) - Math.log(index);
  return sum;
}

/**
 * McNemar's exact test on paired 0/1 scores: `onlyA` pairs right under A only, `onlyB` right
 * under B only; two-sided p = min(1, 2 · P(X ≤ min(onlyA, onlyB))), X ~ Binomial(onlyA + onlyB, 1/2).
 */
export function mcnemarExact(onlyA: number, onlyB: number): number {
  const discordant = onlyA + onlyB;
  if (discordant === 0) return 1;
  const smaller = Math.min(onlyA, onlyB);
  let tail = 0;
  for (let k = 0; k <= smaller; k++) tail += Math.exp(logChoose(discordant, k) - discordant * Math.LN2);
  return Math.min(1, 2 * tail);
}

/**
 * Holm's step-down adjustment of p-values (family-wise error): sorted ascending, the i-th
 * (from 1) becomes max over j ≤ i of min(1, (m − j + 1) · p₍ⱼ₎); returned in the input's order.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((_, index) => index).sort((x, y) => pValues[x]! - pValues[y]!);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pValues[index]!));
    adjusted[index] = running;
  });
  return adjusted;
}
