import { additiveReplicates, groupByUnit } from './cluster-bootstrap.js';
import { bootstrapSettings, percentileBounds } from './interval.js';
import type { ClusterOptions } from './mean-interval.js';

/** A model's rank (1 = best) on the data, and its bootstrap interval. */
export interface RankInterval {
  rank: number;
  lower: number;
  upper: number;
  level: number;
  method: 'bootstrap';
  resamples: number;
  seed: number;
}

/** Ranks of scores, 1 = best; tied scores share the mean of their ranks. */
export function ranksOf(scores: ArrayLike<number>, higherIsBetter = true): number[] {
  const order = Array.from(scores, (_, index) => index).sort((x, y) =>
    higherIsBetter ? scores[y]! - scores[x]! : scores[x]! - scores[y]!,
  );
  const ranks = new Array<number>(scores.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && scores[order[end + 1]!] === scores[order[start]!]) end++;
    for (let index = start; index <= end; index++) ranks[order[index]!] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return ranks;
}

/**
 * Bootstrap rank intervals of several models scored on the same samples: `scores[m][i]` is
 * model m's score on sample i. Each resample draws units (clusters by `units`) once for all
 * models, ranks the models' means, and each model's interval is the percentile interval of its ranks.
 */
export function bootstrapRanks(
  scores: ReadonlyArray<readonly number[]>,
  options: ClusterOptions & { higherIsBetter?: boolean } = {},
): RankInterval[] {
  const settings = bootstrapSettings(options);
  const models = scores.length;
  const samples = scores[0]?.length ?? 0;
  if (scores.some((row) => row.length !== samples))
    throw new RangeError('every model needs a score per sample');
  const indices = Array.from({ length: samples }, (_, index) => index);
  const unitSums = groupByUnit(indices, options.units ? (index) => options.units![index]! : undefined).map(
    (members) => [
      ...scores.map((row) => members.reduce((sum, index) => sum + row[index]!, 0)),
      members.length,
    ],
  );
  const meansOf = (sums: ArrayLike<number>) => scores.map((_, model) => sums[model]! / sums[models]!);
  const totals = unitSums.reduce(
    (sum, unit) => sum.map((value, dim) => value + unit[dim]!),
    new Array(models + 1).fill(0),
  );
  const ranks = ranksOf(meansOf(totals), options.higherIsBetter);
  return ranks.map((rank, model) => {
    const replicates =
      unitSums.length < 2
        ? Float64Array.of(rank)
        : additiveReplicates(
            unitSums,
            (sums) => ranksOf(meansOf(sums), options.higherIsBetter)[model]!,
            settings,
          );
    return {
      rank,
      ...percentileBounds(replicates, settings.level),
      level: settings.level,
      method: 'bootstrap',
      resamples: settings.resamples,
      seed: settings.seed,
    };
  });
}
