import {
  additiveBootstrap,
  additiveReplicates,
  type ClusterOptions,
  groupByUnit,
  type Interval,
  percentileBounds,
  percentileInterval,
  totalsOf,
} from '../uncertainty/index.js';

/** A grade one rater gave one item: a label, an ordinal score, a yes/no. */
export type Category = string | number | boolean;

/**
 * How much a disagreement between categories i and j (positions in the ordered categories, k of
 * them) counts: `none` — every disagreement 1 (Cohen 1960); `linear` — |i − j| / (k − 1);
 * `quadratic` — (i − j)² / (k − 1)² (Cohen 1968; Fleiss & Cohen 1973).
 */
export type KappaWeights = 'none' | 'linear' | 'quadratic';

export interface KappaOptions extends ClusterOptions {
  /** Disagreement weights (default `none`: nominal categories). */
  weights?: KappaWeights;
  /**
   * The categories in order (an ordinal scale's full range, so unused grades still count in the
   * weights). Default: the values both raters used, numbers ascending, else by their text; a
   * weighted kappa of values that are not all numbers needs them given.
   */
  categories?: readonly Category[];
}

/** Cohen's kappa with its bootstrap interval over items (or `units`), and what it is made of. */
export interface KappaEstimate extends Interval {
  weights: KappaWeights;
  /** Observed (weighted) agreement, 1 − Σ w·O. */
  observedAgreement: number;
  /** (Weighted) agreement expected by chance from the two raters' margins, 1 − Σ w·E. */
  chanceAgreement: number;
  categories: Category[];
  /**
   * The share of bootstrap resamples in which kappa was undefined (every drawn item in one
   * category for both raters). Above `KAPPA_UNDEFINED_LIMIT` the interval is not given (bounds NaN,
   * method `none`): too few items fall outside one category for kappa's spread to be estimated.
   */
  undefinedResamples: number;
}

/** The share of undefined resamples above which a kappa's interval is not given (`cohenKappa`). */
export const KAPPA_UNDEFINED_LIMIT = 0.05;

function orderedCategories(first: readonly Category[], second: readonly Category[], weights: KappaWeights) {
  const used = [...new Set([...first, ...second])];
  if (used.every((value) => typeof value === 'number')) return used.sort((a, b) => a - b);
  if (weights !== 'none')
    throw new RangeError(
      `a ${weights}-weighted kappa needs ordered categories, and the grades are not all numbers: pass options.categories in order`,
    );
  return used.sort((a, b) => String(a).localeCompare(String(b)));
}

/** The k × k disagreement weights, row-major. */
export function kappaWeightMatrix(k: number, weights: KappaWeights): Float64Array {
  const matrix = new Float64Array(k * k);
  for (let row = 0; row < k; row++)
    for (let column = 0; column < k; column++) {
      const distance = Math.abs(row - column) / Math.max(1, k - 1);
      matrix[row * k + column] =
        weights === 'none' ? (row === column ? 0 : 1) : weights === 'linear' ? distance : distance ** 2;
    }
  return matrix;
}

/**
 * Kappa of a k × k table of counts (row-major; rows the first rater, columns the second):
 * κ = 1 − Σ w·O / Σ w·E, O the observed shares, E the products of the margins. Unweighted, this is
 * (p_o − p_e) / (1 − p_e). NaN when Σ w·E = 0 (both raters gave every item the same one category:
 * agreement by chance is complete and kappa undefined).
 */
export function kappaOfTable(counts: ArrayLike<number>, weightMatrix: ArrayLike<number>): number {
  return kappaParts(counts, weightMatrix).kappa;
}

function kappaParts(counts: ArrayLike<number>, weightMatrix: ArrayLike<number>) {
  const k = Math.round(Math.sqrt(counts.length));
  const rows = new Float64Array(k);
  const columns = new Float64Array(k);
  let total = 0;
  let observed = 0;
  for (let row = 0; row < k; row++)
    for (let column = 0; column < k; column++) {
      const count = counts[row * k + column]!;
      rows[row]! += count;
      columns[column]! += count;
      total += count;
      observed += weightMatrix[row * k + column]! * count;
    }
  let chance = 0;
  for (let row = 0; row < k; row++)
    for (let column = 0; column < k; column++)
      chance += (weightMatrix[row * k + column]! * rows[row]! * columns[column]!) / total;
  const kappa = chance === 0 ? Number.NaN : 1 - observed / chance;
  return { kappa, observedAgreement: 1 - observed / total, chanceAgreement: 1 - chance / total };
}

/**
 * Cohen's kappa of two raters' grades of the same items (parallel arrays), weighted for ordinal
 * grades, with a percentile bootstrap interval from the shared module: items (or the `units` they
 * belong to) are resampled and kappa recomputed from the resampled k × k table. A resample in which
 * kappa is undefined (every drawn item in one category for both raters) is left out of the
 * percentiles; when more than `KAPPA_UNDEFINED_LIMIT` of them are, no interval is given (bounds
 * NaN, method `none`): one rater's rare category rests on a handful of items, and any interval
 * (counting those resamples as 1, as 0, or leaving them out) would claim what the data cannot say.
 *
 * @example cohenKappa(['yes', 'no', 'yes'], ['yes', 'no', 'no']).estimate
 */
export function cohenKappa(
  first: readonly Category[],
  second: readonly Category[],
  options: KappaOptions = {},
): KappaEstimate {
  if (first.length !== second.length)
    throw new RangeError(
      `kappa needs the two raters' grades of the same items: got ${first.length} and ${second.length}`,
    );
  const weights = options.weights ?? 'none';
  const categories = options.categories ? [...options.categories] : orderedCategories(first, second, weights);
  const k = categories.length;
  const position = new Map(categories.map((category, index) => [category, index]));
  const cellOf = (value: Category, index: number, rater: string) => {
    const found = position.get(value);
    if (found === undefined)
      throw new RangeError(
        `${rater} rater's grade ${JSON.stringify(value)} (item ${index}) is not one of the categories ${JSON.stringify(categories)}`,
      );
    return found;
  };
  const cells = first.map(
    (value, index) => cellOf(value, index, 'first') * k + cellOf(second[index]!, index, 'second'),
  );
  if (options.units && options.units.length !== cells.length)
    throw new RangeError(`${options.units.length} unit labels for ${cells.length} items`);
  const unitTables = groupByUnit(cells, options.units ? (_, index) => options.units![index]! : undefined).map(
    (members) => {
      const table = new Float64Array(k * k);
      for (const cell of members) table[cell]! += 1;
      return table;
    },
  );
  const weightMatrix = kappaWeightMatrix(k, weights);
  const parts = kappaParts(unitTables.length > 0 ? totalsOf(unitTables) : [], weightMatrix);
  const statistic = (table: Float64Array) => kappaOfTable(table, weightMatrix);
  const { interval: resampled, replicates } = Number.isNaN(parts.kappa)
    ? { interval: additiveBootstrap([], () => Number.NaN, options), replicates: null }
    : percentileInterval(
        {
          units: unitTables.length,
          n: cells.length,
          estimate: () => parts.kappa,
          replicates: (settings) => additiveReplicates(unitTables, statistic, settings),
        },
        options,
      );
  const defined = replicates?.filter((value) => !Number.isNaN(value));
  const undefinedResamples = replicates && defined ? 1 - defined.length / replicates.length : 0;
  const interval =
    undefinedResamples > KAPPA_UNDEFINED_LIMIT
      ? { ...resampled, lower: Number.NaN, upper: Number.NaN, method: 'none' as const }
      : defined && undefinedResamples > 0
        ? { ...resampled, ...percentileBounds(defined, resampled.level) }
        : resampled;
  return {
    ...interval,
    undefinedResamples,
    units: unitTables.length,
    n: cells.length,
    weights,
    observedAgreement: parts.observedAgreement,
    chanceAgreement: parts.chanceAgreement,
    categories,
  };
}
