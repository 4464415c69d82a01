import { mcnemarExact, pairedBootstrap, seedOf } from '../../metrics/uncertainty/index.js';
import type { MetricComparison } from './view-types.js';

/** One metric of two runs on the same samples: McNemar for 0/1 scores, a paired bootstrap otherwise. */
export function compareMetric(
  group: string,
  metric: string,
  pairs: ReadonlyArray<{ a: { scores: Record<string, number> }; b: { scores: Record<string, number> } }>,
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
  const result = pairedBootstrap(a, b, { seed: seedOf(`${group}/${metric}`) });
  return {
    metric,
    test: 'paired bootstrap',
    meanA: mean(a),
    meanB: mean(b),
    difference: result.estimate,
    lower: result.lower,
    upper: result.upper,
    p: result.p,
    counts,
  };
}
