import type { RunRecord } from '../core/run-record.js';
import { bootstrapMean, type Estimate, seedOf } from './shared/statistics.js';
import type { GroupSummary, ListRow } from './shared/view-types.js';

export function estimate(values: readonly number[], seedText: string): Estimate {
  return bootstrapMean(values, seedOf(seedText));
}

/** The length × depth grid of the primary metric; a cell without counted results is left out ("—"). */
function gridOf(
  counted: readonly ListRow[],
  options: { metric: string; levels: number[]; depths: number[]; seed: string },
) {
  const { metric, levels, depths } = options;
  if (levels.length === 0 || depths.length === 0) return undefined;
  const cells: Record<string, Estimate> = {};
  for (const depth of depths)
    for (const level of levels) {
      const members = counted.filter((row) => row.params.level === level && row.params.depth === depth);
      if (members.length > 0)
        cells[`${depth}|${level}`] = estimate(
          members.map((row) => row.scores[metric] ?? 0),
          `${options.seed}/${depth}/${level}`,
        );
    }
  return { metric, levels, depths, cells };
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
  const numbers = (key: string) =>
    [...new Set(rows.map((row) => row.params[key]).filter((value) => typeof value === 'number'))].sort(
      (x, y) => (x as number) - (y as number),
    ) as number[];
  const levels = numbers('level');
  const depths = numbers('depth');
  const primaryValue = (row: ListRow) => row.scores[primary ?? ''] ?? 0;
  const grid = primary
    ? gridOf(counted, { metric: primary, levels, depths, seed: `${run.id}/${group}` })
    : undefined;
  const byLevel =
    primary && levels.length > 1
      ? Object.fromEntries(
          levels
            .map((level) => [level, counted.filter((row) => row.params.level === level)] as const)
            .filter(([, members]) => members.length > 0)
            .map(([level, members]) => [
              level,
              estimate(members.map(primaryValue), `${run.id}/${group}/level/${level}`),
            ]),
        )
      : undefined;
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
    byLevel,
    curve,
  };
}
