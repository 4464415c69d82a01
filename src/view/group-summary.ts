import type { RunRecord } from '../core/run-record.js';
import type { SuiteGrid } from '../core/suite.js';
import { bootstrapMean, type Estimate, seedOf } from './shared/statistics.js';
import type { ColumnLine, Grid, GroupSummary, ListRow } from './shared/view-types.js';

export function estimate(values: readonly number[], seedText: string): Estimate {
  return bootstrapMean(values, seedOf(seedText));
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
  const cells: Record<string, Estimate> = {};
  for (const row of rows.values)
    for (const column of columns.values) {
      const members = counted.filter(
        (result) => result.params[rows.param] === row && result.params[columns.param] === column,
      );
      if (members.length > 0)
        cells[`${row}|${column}`] = estimate(
          members.map((result) => result.scores[metric] ?? 0),
          `${options.seed}/${row}/${column}`,
        );
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
      estimate(
        members.map((row) => row.scores[metric] ?? 0),
        `${options.seed}/${axis.param}/${value}`,
      ),
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
    metricKeys.map((key) => [
      key,
      estimate(
        counted.flatMap((row) => (typeof row.scores[key] === 'number' ? [row.scores[key]!] : [])),
        `${run.id}/${group}/${key}`,
      ),
    ]),
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
