import { type ComparisonSettings, comparePairs } from './paired-comparison.js';
import type { ListRow, MetricComparison } from './view-types.js';

type PairedRow = Pick<ListRow, 'id' | 'scores' | 'unit'>;

/**
 * One metric of two runs on the same samples, by `medbench compare`'s own rule (`comparePairs`):
 * the mean's B − A with its paired-bootstrap interval over the rows' units (NIAH: needles),
 * McNemar's exact test for 0/1 scores of single samples, else the bootstrap's p.
 */
export function compareMetric(
  group: string,
  metric: string,
  pairs: ReadonlyArray<{ a: PairedRow; b: PairedRow }>,
  settings: ComparisonSettings = {},
): MetricComparison {
  const result = comparePairs<PairedRow>(
    {
      key: `${group}/${metric}`,
      unit: (row) => row.unit ?? row.id,
      sums: (row) => [row.scores[metric]!, 1],
      score: (totals) => totals[0]! / totals[1]!,
    },
    pairs,
    settings,
  );
  const values = pairs.flatMap((pair) => [pair.a.scores[metric]!, pair.b.scores[metric]!]);
  return {
    metric,
    test: result.test,
    meanA: result.a,
    meanB: result.b,
    difference: result.difference,
    lower: result.lower,
    upper: result.upper,
    ...(result.onlyA === null ? {} : { onlyA: result.onlyA, onlyB: result.onlyB! }),
    p: result.p,
    units: result.units,
    minimumDetectable: result.minimumDetectable,
    /** Counts (KG tp/fp/fn) are shown as counts, not as percentages. */
    counts: values.some((value) => value < 0 || value > 1),
  };
}
