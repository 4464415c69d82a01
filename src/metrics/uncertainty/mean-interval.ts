import {
  additiveBootstrap,
  additiveReplicatesOf,
  groupByUnit,
  percentileInterval,
  totalsOf,
} from './cluster-bootstrap.js';
import { endOfRangeInterval } from './end-of-range.js';
import { type BootstrapOptions, type Interval, pointInterval } from './interval.js';
import { wilsonInterval } from './wilson.js';

export interface ClusterOptions extends BootstrapOptions {
  /** Each value's unit (needle, patient, query), parallel to the values; absent: every value is its own unit. */
  units?: readonly string[];
}

/** Per-unit vectors [Σ value, count] of values grouped by their units. */
function unitMeans(values: readonly number[], units: readonly string[] | undefined): number[][] {
  if (units && units.length !== values.length)
    throw new RangeError(`${units.length} unit labels for ${values.length} values`);
  const indices = values.map((_, index) => index);
  return groupByUnit(indices, units ? (index) => units[index]! : undefined).map((members) => [
    members.reduce((sum, index) => sum + values[index]!, 0),
    members.length,
  ]);
}

/**
 * The sample mean with a cluster-bootstrap interval: units are resampled, the statistic is
 * Σ value / count over the drawn rows. Values all in [0, 1] whose units all score 0 (or all 1)
 * get Wilson's 0 of U (U of U) instead of the collapsed [x, x] (`endOfRangeInterval`).
 */
export function bootstrapMean(values: readonly number[], options: ClusterOptions = {}): Interval {
  const interval = additiveBootstrap(unitMeans(values, options.units), (sums) => sums[0]! / sums[1]!, {
    ...options,
    n: values.length,
  });
  return values.every((value) => value >= 0 && value <= 1) ? endOfRangeInterval(interval) : interval;
}

const isBinary = (values: readonly number[]) => values.every((value) => value === 0 || value === 1);

/**
 * The interval a score's mean gets: Wilson for a plain proportion (0/1 scores of independent
 * samples: no units, or one value per unit), otherwise the cluster bootstrap of the mean (with its
 * rule for units all at 0 or all at 1: Wilson at the number of units, `endOfRangeInterval`).
 */
export function meanInterval(values: readonly number[], options: ClusterOptions = {}): Interval {
  const independent = !options.units || new Set(options.units).size === options.units.length;
  if (values.length > 0 && independent && isBinary(values)) {
    const ones = values.reduce<number>((sum, value) => sum + value, 0);
    return wilsonInterval(ones, values.length, options.level);
  }
  return bootstrapMean(values, options);
}

/** Counts of one row of a set-valued answer: true positives, false positives, false negatives. */
export interface Confusion {
  tp: number;
  fp: number;
  fn: number;
}

const ratio = (numerator: number, denominator: number) => (denominator === 0 ? 0 : numerator / denominator);

/** Micro precision, recall and F1 of summed counts (0 where a denominator is 0). */
export function microScores(totals: Confusion): { precision: number; recall: number; f1: number } {
  const precision = ratio(totals.tp, totals.tp + totals.fp);
  const recall = ratio(totals.tp, totals.tp + totals.fn);
  return { precision, recall, f1: ratio(2 * totals.tp, 2 * totals.tp + totals.fp + totals.fn) };
}

/**
 * Micro P/R/F1 with cluster-bootstrap intervals: tp, fp, fn are summed over the resampled rows
 * (all three from the same resamples). F1 = 2tp / (2tp + fp + fn). A score collapsed at 0 or 1
 * (tp = 0 in every unit; no fp and fn at all) gets Wilson's 0 of U (U of U), `endOfRangeInterval`;
 * a score whose denominator is 0 in the data (precision without any predicted item, recall without
 * any gold one) is undefined, printed 0: method 'none', no interval.
 */
export function bootstrapMicroScores(
  rows: readonly Confusion[],
  options: ClusterOptions = {},
): { precision: Interval; recall: Interval; f1: Interval } {
  if (options.units && options.units.length !== rows.length)
    throw new RangeError(`${options.units.length} unit labels for ${rows.length} rows`);
  const units = groupByUnit(rows, options.units ? (_, index) => options.units![index]! : undefined).map(
    (members) => {
      const sums = [0, 0, 0];
      for (const row of members) {
        sums[0]! += row.tp;
        sums[1]! += row.fp;
        sums[2]! += row.fn;
      }
      return sums;
    },
  );
  const picks = ['precision', 'recall', 'f1'] as const;
  const statistics = picks.map(
    (pick) => (sums: Float64Array) => microScores({ tp: sums[0]!, fp: sums[1]!, fn: sums[2]! })[pick],
  );
  // The three from the same resamples, drawn once.
  let replicates: Float64Array[] | undefined;
  const [precision, recall, f1] = picks.map(
    (_, index) =>
      percentileInterval(
        {
          units: units.length,
          n: rows.length,
          estimate: () => statistics[index]!(totalsOf(units)),
          replicates: (settings) => {
            replicates ??= additiveReplicatesOf(units, statistics, settings);
            return replicates[index]!;
          },
        },
        options,
      ).interval,
  );
  const totals = totalsOf(units);
  const [tp, fp, fn] = [totals[0]!, totals[1]!, totals[2]!];
  const honest = (interval: Interval, denominator: number) =>
    denominator === 0 && rows.length > 0
      ? pointInterval(interval.estimate, { units: interval.units, n: interval.n }, interval.level)
      : endOfRangeInterval(interval);
  return {
    precision: honest(precision!, tp + fp),
    recall: honest(recall!, tp + fn),
    f1: honest(f1!, 2 * tp + fp + fn),
  };
}
