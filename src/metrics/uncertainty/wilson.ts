import { DEFAULT_LEVEL, type Interval, pointInterval } from './interval.js';
import { normalQuantile } from './normal-quantile.js';

/**
 * Wilson score interval of a proportion `successes / n` of independent trials:
 * (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n), z = Φ⁻¹((1 + level)/2).
 */
export function wilsonInterval(successes: number, n: number, level = DEFAULT_LEVEL): Interval {
  if (n === 0) return pointInterval(Number.NaN, { units: 0, n: 0 }, level);
  if (successes < 0 || successes > n)
    throw new RangeError(`successes must lie in [0, ${n}], got ${successes}`);
  const p = successes / n;
  const z = normalQuantile((1 + level) / 2);
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const denominator = 1 + z2 / n;
  return {
    estimate: p,
    // Clamped against rounding, so 0/n and n/n keep their end exactly.
    lower: Math.max(0, (centre - spread) / denominator),
    upper: Math.min(1, (centre + spread) / denominator),
    level,
    method: 'wilson',
    resamples: null,
    seed: null,
    units: n,
    n,
  };
}
