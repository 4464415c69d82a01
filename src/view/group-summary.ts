import type { RunRecord } from '../core/run-record.js';
import type { SuiteGrid } from '../core/suite.js';
import { type Interval, meanInterval, seedOf } from '../metrics/uncertainty/index.js';
import type { ColumnLine, Grid, GroupSummary, ListRow } from './shared/view-types.js';

/**
 * A metric's mean over rows with its 95% interval (`meanInterval`: Wilson for 0/1 scores of
 * independent rows, else the bootstrap clustered by each row's `unit`), seeded from `seedText`.
 * Rows without the metric are left out, or count as 0 with `missingAsZero`.
 */
export function estimate(
  rows: readonly ListRow[],
  options: { metric: string; seedText: string; missingAsZero?: boolean },
): Interval {
  const kept = options.missingAsZero
    ? rows
    : rows.filter((row) => typeof row.scores[options.metric] === 'number');
  return meanInterval(
    kept.map((row) => row.scores[options.metric] ?? 0),
    {
      seed: seedOf(options.seedText),
      units: kept.map((row) => row.unit ?? `sample:${row.id}`),
    },
  );
}

/** The values a numeric param takes in a group's rows, in order. */
function valuesOf(rows: readonly ListRow[], param: string): number[] {
  return [...new Set(rows.map((row) => row.params[param]).filter((value) => typeof value === 'number'))].sort(
    (x, y) => (x as number) - (y as number),
  ) as number[];
}

/** The suite's grid of the primary metric; a cell without counted results is left out ("—"). */
function gridOf(
  counted: readonly ListRow[],
  options: { metric: string; rows: Grid['rows']; columns: Grid['columns']; seed: string },
): Grid | undefined {
  const { metric, rows, columns } = options;
  if (rows.values.length === 0 || columns.values.length === 0) return undefined;
  const cells: Record<string, Interval> = {};
  for (const row of rows.values)
    for (const column of columns.values) {
      const members = counted.filter(
        (result) => result.params[rows.param] === row && result.params[columns.param] === column,
      );
      if (members.length > 0)
        cells[`${row}|${column}`] = estimate(members, {
          metric,
          seedText: `${options.seed}/${row}/${column}`,
          missingAsZero: true,
        });
    }
  return { metric, rows, columns, cells };
}

/** The primary metric along the grid's columns, when the group's results take more than one column value. */
function columnLineOf(
  counted: readonly ListRow[],
  options: { metric: string; axis: SuiteGrid['columns']; values: number[]; seed: string },
): ColumnLine | undefined {
  const { metric, axis, values } = options;
  if (values.length <= 1) return undefined;
  const points = values
    .map((value) => [value, counted.filter((row) => row.params[axis.param] === value)] as const)
    .filter(([, members]) => members.length > 0)
    .map(([value, members]) => [
      value,
      estimate(members, {
        metric,
        seedText: `${options.seed}/${axis.param}/${value}`,
        missingAsZero: true,
      }),
    ]);
  return { axis, points: Object.fromEntries(points) };
}

/** The grid and the line of a group whose suite declares a grid (`Suite.grid`). */
function figuresAlongGrid(
  rows: readonly ListRow[],
  counted: readonly ListRow[],
  options: { grid: SuiteGrid | undefined; metric: string | undefined; seed: string },
): { grid: Grid | undefined; byColumn: ColumnLine | undefined } {
  const { grid: axes, metric, seed } = options;
  if (!axes || metric === undefined) return { grid: undefined, byColumn: undefined };
  const columns = { ...axes.columns, values: valuesOf(rows, axes.columns.param) };
  return {
    grid: gridOf(counted, {
      metric,
      rows: { ...axes.rows, values: valuesOf(rows, axes.rows.param) },
      columns,
      seed,
    }),
    byColumn: columnLineOf(counted, { metric, axis: axes.columns, values: columns.values, seed }),
  };
}

/**
 * One task group of a run page. `counted` are the rows the suite counts (the report's rule: NIAH
 * levels beyond the model's window are left out); the others show as "—" and in `excluded`.
 */
export function summariseGroup(
  run: RunRecord,
  group: string,
  rows: ListRow[],
  counted: readonly ListRow[],
  primary: string | undefined,
  suiteGrid: SuiteGrid | undefined,
): Omit<GroupSummary, 'figures' | 'title' | 'metricNames'> {
  const statuses: Record<string, number> = {};
  for (const row of rows) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
  const metricKeys = [...new Set(counted.flatMap((row) => Object.keys(row.scores)))].filter(
    (key) => key !== 'firstRank' && key !== 'allRank',
  );
  /** Metrics whose values all lie in [0, 1] are shown as percentages; counts (KG tp/fp/fn) as they are. */
  const fractional = metricKeys.filter((key) =>
    counted.every((row) => row.scores[key] === undefined || (row.scores[key]! >= 0 && row.scores[key]! <= 1)),
  );
  const metrics = Object.fromEntries(
    metricKeys.map((key) => [key, estimate(counted, { metric: key, seedText: `${run.id}/${group}/${key}` })]),
  );
  const { grid, byColumn } = figuresAlongGrid(rows, counted, {
    grid: suiteGrid,
    metric: primary,
    seed: `${run.id}/${group}`,
  });
  const cutoffs = metricKeys.filter((key) => key.startsWith('hr@')).map((key) => Number(key.slice(3)));
  const curve =
    cutoffs.length > 0 ? cutoffs.map((cutoff) => ({ ...metrics[`hr@${cutoff}`]!, cutoff })) : undefined;
  return {
    group,
    task: rows[0]!.task,
    samples: rows.length,
    /** Results left out of every figure (NIAH levels beyond the model's window). */
    excluded: rows.length - counted.length,
    statuses,
    primary,
    metrics,
    fractional,
    grid,
    byColumn,
    curve,
  };
}
