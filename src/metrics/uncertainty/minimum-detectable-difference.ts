import { normalQuantile } from './normal-quantile.js';

/**
 * The smallest true difference a two-sided test at `alpha` detects with probability `power` at
 * n independent units (normal approximation): MDD = (z₁₋α/₂ + z_power) · sd / √n, where sd is the
 * standard deviation of one unit's difference: for a paired design the sd of the per-unit
 * differences B − A; for two independent proportions near p, √(2p(1 − p)).
 */
export function minimumDetectableDifference(options: {
  n: number;
  sd: number;
  alpha?: number;
  power?: number;
}): number {
  const { n, sd, alpha = 0.05, power = 0.8 } = options;
  if (!(n > 0)) return Number.POSITIVE_INFINITY;
  return ((normalQuantile(1 - alpha / 2) + normalQuantile(power)) * sd) / Math.sqrt(n);
}

/** Sample standard deviation (n − 1 in the denominator); 0 for fewer than two values. */
export function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const squares = values.reduce((sum, value) => sum + (value - mean) ** 2, 0);
  return Math.sqrt(squares / (values.length - 1));
}
