import { additiveReplicates, percentileInterval } from './cluster-bootstrap.js';
import { endOfRangeInterval } from './end-of-range.js';
import { type BootstrapOptions, bootstrapSettings, type Interval } from './interval.js';

/** One stratum of a macro average: its mean, the bootstrap replicates of that mean, its sample count. */
export interface Stratum {
  estimate: number;
  replicates: Float64Array;
  n: number;
  /** Every value lies in [0, 1] (`stratumOf` sets it): an average collapsed at 0 or 1 then gets `endOfRangeInterval`. */
  bounded?: boolean;
}

/**
 * A stratum of values for `meanOfMeansInterval`: its mean and B replicates of it, resampling its
 * values with `seededRandom(seed)` (the `resampledUnits` rule).
 */
export function stratumOf(values: readonly number[], options: BootstrapOptions = {}): Stratum {
  const settings = bootstrapSettings(options);
  const units = values.map((value) => [value]);
  const n = values.length;
  return {
    estimate: values.reduce((sum, value) => sum + value, 0) / n,
    replicates: additiveReplicates(units, (sums) => sums[0]! / n, settings),
    n,
    bounded: values.every((value) => value >= 0 && value <= 1),
  };
}

/**
 * The plain mean of several strata's means (a macro average: datasets of a benchmark) with its
 * stratified percentile-bootstrap interval: each stratum is resampled on its own, the b-th
 * replicate of the average is the mean of the strata's b-th replicates. Strata must share B.
 */
export function meanOfMeansInterval(strata: readonly Stratum[], options: BootstrapOptions = {}): Interval {
  const units = strata.reduce((sum, stratum) => sum + stratum.n, 0);
  const interval = percentileInterval(
    {
      units: strata.length === 0 ? 0 : units,
      n: units,
      estimate: () => strata.reduce((sum, stratum) => sum + stratum.estimate, 0) / strata.length,
      replicates: ({ resamples }) => {
        const replicates = new Float64Array(resamples);
        for (const stratum of strata) {
          if (stratum.replicates.length !== resamples)
            throw new RangeError(
              `a stratum has ${stratum.replicates.length} replicates, not B = ${resamples}`,
            );
          for (let round = 0; round < resamples; round++)
            replicates[round]! += stratum.replicates[round]! / strata.length;
        }
        return replicates;
      },
    },
    options,
  ).interval;
  return strata.length > 0 && strata.every((stratum) => stratum.bounded)
    ? endOfRangeInterval(interval)
    : interval;
}
