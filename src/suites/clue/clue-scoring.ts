import type { ScoredRow, ScoredTask, SuiteScoring } from '../../core/scored-task.js';
import { meanTask } from '../../core/scored-task.js';
import { clueUnitOf } from './clue-intervals.js';
import { CLUE_PRIMARY_METRICS } from './clue-tasks.js';
import { JUDGE_METRIC } from './judge-task.js';
import type { ClueTaskName } from './load-tasks.js';
import { CLUE_PROTOCOL, type ClueProtocol, type ClueProtocolName } from './protocols.js';

const TASK_ORDER = Object.keys(CLUE_PRIMARY_METRICS);
/** The datasets of CLUE's Level 1 and Level 2, as the report's level scores take them. */
export const CLUE_LEVELS = [
  ['mednli', 'problem-summary', 'meqsum'],
  ['longhealth', 'medisumqa', 'medisumcode'],
] as const;

/** The report's column of one of a result's scores: LongHealth's accuracy goes by sub-task (`task1` …). */
export function clueMetricKey(row: Pick<ScoredRow, 'task' | 'params'>, metric: string): string {
  return row.task === 'longhealth' ? `task${row.params.subtask}` : metric;
}

/** How often the report counts a result: twice for the first item of a protocol that averages so. */
function weightOf(row: ScoredRow): number {
  const protocol = CLUE_PROTOCOL[row.params.protocol as ClueProtocolName] as ClueProtocol | undefined;
  const rule = protocol?.tasks[row.task as ClueTaskName]?.averaging;
  return rule === 'first-item-twice' && Number(row.params.order ?? 0) === 0 ? 2 : 1;
}

/** The metric keys of a result's scores (`clueMetricKey`). */
/** A row's metric columns; the judge's score (medbench judge) is reported beside the papers' metrics, never ranked with them. */
const metricKeysOf = (row: ScoredRow) =>
  Object.keys(row.scores)
    .filter((metric) => metric !== JUDGE_METRIC)
    .map((metric) => clueMetricKey(row, metric));

/**
 * A dataset as the level scores take it: the mean of its metrics' means (those a run has), each
 * metric's mean weighted as the report's averaging rule weights it. Sums: a weighted total and
 * a weight per metric. `key` and `includes`: another name and fewer rows (one metric's column).
 */
function datasetTask(
  dataset: string,
  metrics: readonly string[],
  only: { key: string; includes: (row: ScoredRow) => boolean } = {
    key: dataset,
    includes: (row) => row.task === dataset,
  },
): ScoredTask {
  return {
    key: only.key,
    statistic: metrics.length === 1 ? 'mean' : 'mean of its metrics',
    includes: only.includes,
    unit: (row) => clueUnitOf(row) ?? row.sampleId,
    sums: (row) => {
      const sums = new Array<number>(2 * metrics.length).fill(0);
      const weight = weightOf(row);
      for (const [metric, value] of Object.entries(row.scores)) {
        const index = metrics.indexOf(clueMetricKey(row, metric));
        if (index < 0) continue;
        sums[2 * index] = sums[2 * index]! + weight * value;
        sums[2 * index + 1] = sums[2 * index + 1]! + weight;
      }
      return sums;
    },
    score: (totals) => {
      const means = metrics.flatMap((_, index) =>
        totals[2 * index + 1]! > 0 ? [totals[2 * index]! / totals[2 * index + 1]!] : [],
      );
      return means.length === 0 ? Number.NaN : means.reduce((sum, value) => sum + value, 0) / means.length;
    },
    binary: false,
  };
}

/** dataset → the metric keys its results have (`clueMetricKey`: LongHealth by sub-task). */
function metricsByDataset(rows: readonly ScoredRow[]): Map<string, Set<string>> {
  const metrics = new Map<string, Set<string>>();
  for (const row of rows)
    for (const metric of metricKeysOf(row))
      metrics.get(row.task)?.add(metric) ?? metrics.set(row.task, new Set([metric]));
  return metrics;
}

/**
 * The "Every metric" leaderboard's columns, one task each (`<dataset> <metric>`, its column's
 * key): the metric's mean over the dataset's items that have it, weighted as the report weights
 * it; the leaderboard averages every column some run has.
 */
function metricTasks(rows: readonly ScoredRow[]): ScoredTask[] {
  const metrics = metricsByDataset(rows);
  return TASK_ORDER.filter((dataset) => metrics.has(dataset)).flatMap((dataset) =>
    [...metrics.get(dataset)!].sort().map((metric) =>
      datasetTask(dataset, [metric], {
        key: `${dataset} ${metric}`,
        includes: (row) => row.task === dataset && metricKeysOf(row).includes(metric),
      }),
    ),
  );
}

/**
 * The leaderboard's datasets: those of each level every dataset of which some run holds. The
 * mean of their scores is the mean of the levels' scores (each level has three datasets).
 */
function levelTasks(rows: readonly ScoredRow[]): ScoredTask[] {
  const metrics = metricsByDataset(rows);
  return CLUE_LEVELS.filter((level) => level.every((dataset) => metrics.has(dataset)))
    .flat()
    .map((dataset) => datasetTask(dataset, [...metrics.get(dataset)!].sort()));
}

/**
 * CLUE's tasks for `medbench compare` and rank intervals. `primary`: each task's mean of its
 * primary metric (accuracy, ROUGE-L, exact-match F1), LongHealth resampled by patient, every
 * other item alone. `levels`: the leaderboard's ranking, the mean of Level 1 and Level 2.
 * `metrics`: the "Every metric" leaderboard's, the mean of every metric's column.
 */
export const clueScoring: SuiteScoring = {
  variants: ['primary', 'levels', 'metrics'],
  leaderboards: ['levels', 'metrics'],
  tasks: (variant, rows) => {
    if (variant === 'levels') return levelTasks(rows);
    if (variant === 'metrics') return metricTasks(rows);
    const present = new Set(rows.map((row) => row.task));
    return TASK_ORDER.filter((task) => present.has(task)).map((task) => {
      const metric = CLUE_PRIMARY_METRICS[task as keyof typeof CLUE_PRIMARY_METRICS];
      return meanTask({
        key: task,
        statistic: metric,
        includes: (row) => row.task === task,
        unit: (row) => clueUnitOf(row) ?? row.sampleId,
        metric,
        binary: metric === 'accuracy',
      });
    });
  },
};
