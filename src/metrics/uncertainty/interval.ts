/** How an interval was computed. */
export type IntervalMethod =
  /** Percentile bootstrap over units (a unit: one sample, or one cluster of samples). */
  | 'bootstrap'
  /** Wilson score interval of a plain proportion of independent samples. */
  | 'wilson'
  /** Fewer than two units: nothing to resample, the interval is the point estimate. */
  | 'none';

/** A point estimate with its confidence interval and everything needed to reproduce it. */
export interface Interval {
  estimate: number;
  lower: number;
  upper: number;
  /** Confidence level, 0.95 by default. */
  level: number;
  method: IntervalMethod;
  /** Bootstrap resamples (B); null for Wilson and `none`. */
  resamples: number | null;
  /** The PRNG seed of the bootstrap; null for Wilson and `none`. */
  seed: number | null;
  /** Independent units resampled (clusters: needles, patients, queries; or samples). */
  units: number;
  /** Rows (samples) behind the estimate. */
  n: number;
}

export interface BootstrapOptions {
  /** B, the number of resamples (default 1000). */
  resamples?: number;
  /** PRNG seed (default `DEFAULT_SEED`). */
  seed?: number;
  /** Confidence level (default 0.95). */
  level?: number;
}

export const DEFAULT_RESAMPLES = 1000;
export const DEFAULT_SEED = 20_260_527;
export const DEFAULT_LEVEL = 0.95;

/** The options with every default filled in; throws on a B, seed or level out of range. */
export function bootstrapSettings(options: BootstrapOptions = {}): Required<BootstrapOptions> {
  const settings = {
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
    seed: options.seed ?? DEFAULT_SEED,
    level: options.level ?? DEFAULT_LEVEL,
  };
  if (!Number.isInteger(settings.resamples) || settings.resamples < 1)
    throw new RangeError(`bootstrap resamples must be a positive integer, got ${settings.resamples}`);
  if (!Number.isInteger(settings.seed))
    throw new RangeError(`bootstrap seed must be an integer, got ${settings.seed}`);
  if (!(settings.level > 0 && settings.level < 1))
    throw new RangeError(`confidence level must lie strictly between 0 and 1, got ${settings.level}`);
  return settings;
}

/** Quantile of sorted values, linear between order statistics (R's type 7). */
export function quantileSorted(sorted: ArrayLike<number>, fraction: number): number {
  const position = fraction * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

/** The percentile interval of bootstrap replicates at a level: the (1−level)/2 and (1+level)/2 quantiles. */
export function percentileBounds(replicates: Float64Array, level: number): { lower: number; upper: number } {
  const sorted = replicates.slice().sort();
  return {
    lower: quantileSorted(sorted, (1 - level) / 2),
    upper: quantileSorted(sorted, (1 + level) / 2),
  };
}

/** An interval that is its point estimate (no data to resample, or fewer than two units). */
export function pointInterval(
  estimate: number,
  counts: { units: number; n: number },
  level = DEFAULT_LEVEL,
): Interval {
  return {
    estimate,
    lower: estimate,
    upper: estimate,
    level,
    method: 'none',
    resamples: null,
    seed: null,
    ...counts,
  };
}

/** An interval as a report prints it beside its score: the bounds and how they were made (the score is the estimate). */
export type ReportInterval = Omit<Interval, 'estimate' | 'n'>;

/** The report's form of an interval, its bounds ×`factor` (a fraction shown as a percentage: 100). */
export function reportInterval(interval: Interval, factor = 1): ReportInterval {
  const { estimate: _estimate, n: _n, ...rest } = interval;
  return { ...rest, lower: interval.lower * factor, upper: interval.upper * factor };
}

/** The bootstrap settings a report uses for every interval it gives (`--bootstrap-resamples`, `--seed`). */
export interface IntervalSettings {
  resamples: number;
  seed: number;
}
