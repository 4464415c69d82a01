import { epochSettingsOf } from '../../core/epochs.js';
import type { SampleParams, SampleStatus } from '../../core/sample.js';
import { reduceEpochRows } from '../../metrics/epoch-results.js';
import { compareMetric } from './compare-metric.js';
import type { Comparison, GroupFigure, GroupNames, ListRow, RunDescription } from './view-types.js';

/** One side of a comparison: a run, its rows of the group (outputs included) and its report figures. */
export interface CompareSide {
  run: RunDescription;
  rows: readonly ListRow[];
  figures: GroupFigure[];
}

/**
 * A side's rows one per sample: a run of `--epochs K` has each sample's epochs reduced as `report`
 * and `compare` reduce them (`reduceEpochRows`, the task's reducer), its output the first answered
 * epoch's; a run of one epoch: its rows as they are.
 */
export function rowsPerSample(side: Pick<CompareSide, 'run' | 'rows'>): readonly ListRow[] {
  const settings = epochSettingsOf(side.run);
  if (!settings) return side.rows;
  const rows = side.rows.map((row) => ({
    ...row,
    sampleId: row.id,
    params: row.params as SampleParams,
    status: row.status as SampleStatus,
    inputTokens: null,
    outputTokens: null,
  }));
  return reduceEpochRows(rows, settings).map(
    ({ sampleId, inputTokens: _input, outputTokens: _output, ...row }): ListRow => ({ ...row, id: sampleId }),
  );
}

/**
 * Two runs on the same samples of a task group: the pairs both count (a level beyond either
 * model's window is not compared), McNemar or a paired bootstrap per metric, each run's report
 * figures, and the samples they score differently with both outputs side by side.
 */
export function compareGroups(
  group: string,
  names: GroupNames,
  left: CompareSide,
  right: CompareSide,
): Comparison | undefined {
  if (left.rows.length === 0 || right.rows.length === 0) return undefined;
  // Each sample once: an --epochs run's epochs reduced, as report and compare count it.
  const rowsB = new Map(rowsPerSample(right).map((row) => [row.id, row]));
  const pairs = rowsPerSample(left)
    .filter((row) => rowsB.has(row.id))
    .map((row) => ({ a: row, b: rowsB.get(row.id)! }))
    .filter((pair) => pair.a.counted && pair.b.counted);
  const metrics = [...new Set(pairs.flatMap((pair) => Object.keys(pair.a.scores)))].filter((metric) =>
    pairs.every((pair) => typeof pair.b.scores[metric] === 'number'),
  );
  return {
    a: left.run,
    b: right.run,
    group,
    title: names.title,
    metricNames: names.metricNames,
    paired: pairs.length,
    metrics: metrics.map((metric) => compareMetric(group, metric, pairs)),
    figures: { a: left.figures, b: right.figures },
    disagreements: pairs
      .filter((pair) => metrics.some((metric) => pair.a.scores[metric] !== pair.b.scores[metric]))
      .slice(0, 500)
      .map((pair) => ({
        id: pair.a.id,
        params: pair.a.params,
        a: pair.a.scores,
        b: pair.b.scores,
        outputA: pair.a.rawOutput ?? null,
        outputB: pair.b.rawOutput ?? null,
      })),
  };
}
