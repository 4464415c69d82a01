import {
  type BootstrapOptions,
  bootstrapSettings,
  type Interval,
  percentileBounds,
  pointInterval,
} from './interval.js';
import { seededRandom } from './seeded-random.js';

/**
 * Rows grouped into units by a key (needle, patient, query), in order of first appearance;
 * without a key every row is its own unit.
 */
export function groupByUnit<Row>(
  rows: readonly Row[],
  unitOf?: (row: Row, index: number) => string,
): Row[][] {
  if (!unitOf) return rows.map((row) => [row]);
  const units = new Map<string, Row[]>();
  rows.forEach((row, index) => {
    const key = unitOf(row, index);
    units.get(key)?.push(row) ?? units.set(key, [row]);
  });
  return [...units.values()];
}

/**
 * The resampled unit indices, round after round: round r draws `units` indices, each
 * ⌊random() · units⌋ from `seededRandom(seed)`, in order. Every bootstrap here draws this way,
 * so two statistics with the same seed and units see the same resamples (a paired design).
 */
export function* resampledUnits(units: number, resamples: number, seed: number): Generator<Uint32Array> {
  const random = seededRandom(seed);
  const drawn = new Uint32Array(units);
  for (let round = 0; round < resamples; round++) {
    for (let draw = 0; draw < units; draw++) drawn[draw] = Math.floor(random() * units);
    yield drawn;
  }
}

/**
 * Bootstrap replicates of several statistics of additive unit totals, all from the same
 * resamples (`resampledUnits`' draws, inlined for speed): replicates[s][r] is statistic s of round r.
 */
export function additiveReplicatesOf(
  unitSums: ReadonlyArray<ArrayLike<number>>,
  statistics: ReadonlyArray<(sums: Float64Array) => number>,
  settings: { resamples: number; seed: number },
): Float64Array[] {
  const units = unitSums.length;
  const dims = unitSums[0]?.length ?? 0;
  // The unit vectors side by side in one array: unit i's sums at [i·dims, (i+1)·dims).
  const flat = new Float64Array(units * dims);
  unitSums.forEach((sums, unit) => {
    for (let dim = 0; dim < dims; dim++) flat[unit * dims + dim] = sums[dim]!;
  });
  const replicates = statistics.map(() => new Float64Array(settings.resamples));
  const totals = new Float64Array(dims);
  const random = seededRandom(settings.seed);
  for (let round = 0; round < settings.resamples; round++) {
    totals.fill(0);
    for (let draw = 0; draw < units; draw++) {
      const offset = Math.floor(random() * units) * dims;
      for (let dim = 0; dim < dims; dim++) totals[dim]! += flat[offset + dim]!;
    }
    for (let index = 0; index < statistics.length; index++)
      replicates[index]![round] = statistics[index]!(totals);
  }
  return replicates;
}

/** Bootstrap replicates of a statistic of additive unit totals (see `additiveBootstrap`). */
export function additiveReplicates(
  unitSums: ReadonlyArray<ArrayLike<number>>,
  statistic: (sums: Float64Array) => number,
  settings: { resamples: number; seed: number },
): Float64Array {
  return additiveReplicatesOf(unitSums, [statistic], settings)[0]!;
}

/** Column sums of the unit vectors: the statistic's input on the data as it is. */
export function totalsOf(unitSums: ReadonlyArray<ArrayLike<number>>): Float64Array {
  const totals = new Float64Array(unitSums[0]?.length ?? 0);
  for (const sums of unitSums) for (let dim = 0; dim < totals.length; dim++) totals[dim]! += sums[dim]!;
  return totals;
}

/**
 * The percentile interval of an estimate and its bootstrap replicates (returned too, for a
 * p-value); with no unit the estimate is NaN, with one unit the interval is the estimate (`none`).
 */
export function percentileInterval(
  source: {
    units: number;
    n: number;
    estimate: () => number;
    replicates: (settings: { resamples: number; seed: number }) => Float64Array;
  },
  options: BootstrapOptions = {},
): { interval: Interval; replicates: Float64Array | null } {
  const settings = bootstrapSettings(options);
  const counts = { units: source.units, n: source.n };
  if (source.units === 0)
    return { interval: pointInterval(Number.NaN, counts, settings.level), replicates: null };
  const estimate = source.estimate();
  if (source.units < 2)
    return { interval: pointInterval(estimate, counts, settings.level), replicates: null };
  const replicates = source.replicates(settings);
  const bounds = percentileBounds(replicates, settings.level);
  return { interval: { estimate, ...bounds, method: 'bootstrap', ...settings, ...counts }, replicates };
}

/**
 * Cluster (percentile) bootstrap of a statistic that depends on the rows only through sums:
 * each unit is the vector of its rows' sums (a mean: [Σ score, count]; micro P/R/F1: [tp, fp, fn]),
 * a resample draws units with replacement and adds their vectors, `statistic` maps the totals to
 * a number. Same result as `clusterBootstrap` on the rows, in O(B · units · dims).
 * `n`: rows behind the units (default: one per unit).
 */
export function additiveBootstrap(
  unitSums: ReadonlyArray<ArrayLike<number>>,
  statistic: (sums: Float64Array) => number,
  options: BootstrapOptions & { n?: number } = {},
): Interval {
  return percentileInterval(
    {
      units: unitSums.length,
      n: options.n ?? unitSums.length,
      estimate: () => statistic(totalsOf(unitSums)),
      replicates: (settings) => additiveReplicates(unitSums, statistic, settings),
    },
    options,
  ).interval;
}

/**
 * Cluster (percentile) bootstrap of any statistic of rows: `units` are the rows of each cluster
 * (one row each for a plain bootstrap); a resample draws units with replacement and
 * `statistic` reads the rows of the drawn units, concatenated.
 */
export function clusterBootstrap<Row>(
  units: ReadonlyArray<ReadonlyArray<Row>>,
  statistic: (rows: readonly Row[]) => number,
  options: BootstrapOptions = {},
): Interval {
  return percentileInterval(
    {
      units: units.length,
      n: units.reduce((total, rows) => total + rows.length, 0),
      estimate: () => statistic(units.flat()),
      replicates: (settings) => {
        const replicates = new Float64Array(settings.resamples);
        let round = 0;
        for (const drawn of resampledUnits(units.length, settings.resamples, settings.seed))
          replicates[round++] = statistic(Array.from(drawn, (index) => units[index]!).flat());
        return replicates;
      },
    },
    options,
  ).interval;
}
