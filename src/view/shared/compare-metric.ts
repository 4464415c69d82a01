import { mcnemarExact, pairedBootstrap, seedOf } from '../../metrics/uncertainty/index.js';
import type { MetricComparison } from './view-types.js';

/** A side of a pair: its scores, and the sample's id and unit (`ListRow`). */
interface PairSide {
  id?: string;
  unit?: string | null;
  scores: Record<string, number>;
}

/**
 * One metric of two runs on the same samples: exact McNemar for 0/1 scores (it takes every pair
 * as independent, clustered or not), a paired bootstrap otherwise — over units when the samples
 * cluster (`ListRow.unit`).
 */
export function compareMetric(
  group: string,
  metric: string,
  pairs: ReadonlyArray<{ a: PairSide; b: PairSide }>,
): MetricComparison {
  const a = pairs.map((pair) => pair.a.scores[metric]!);
  const b = pairs.map((pair) => pair.b.scores[metric]!);
  const mean = (values: number[]) =>
    values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const binary = [...a, ...b].every((value) => value === 0 || value === 1);
  /** Counts (KG tp/fp/fn) are shown as counts, not as percentages. */
  const counts = [...a, ...b].some((value) => value < 0 || value > 1);
  if (binary) {
    const onlyA = pairs.filter((_, index) => a[index] === 1 && b[index] === 0).length;
    const onlyB = pairs.filter((_, index) => a[index] === 0 && b[index] === 1).length;
    return {
      metric,
      test: 'McNemar (exact)',
      meanA: mean(a),
      meanB: mean(b),
      difference: mean(b) - mean(a),
      onlyA,
      onlyB,
      p: mcnemarExact(onlyA, onlyB),
      counts,
    };
  }
  const units = pairs.map((pair, index) => pair.a.unit ?? `sample:${pair.a.id ?? index}`);
  const clustered = new Set(units).size < units.length;
  const result = pairedBootstrap(a, b, { seed: seedOf(`${group}/${metric}`), units });
  return {
    metric,
    test: clustered ? `paired bootstrap over ${result.units} units` : 'paired bootstrap',
    meanA: mean(a),
    meanB: mean(b),
    difference: result.estimate,
    lower: result.lower,
    upper: result.upper,
    p: result.p,
    counts,
  };
}
