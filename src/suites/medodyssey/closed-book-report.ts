import type { RunRecord, StoredResult } from '../../core/run-record.js';
import type { ScoredRow, ScoredTask } from '../../core/scored-task.js';
import type { IntervalSettings } from '../../metrics/uncertainty/index.js';
import { countedInTables } from './aggregate.js';
import { CLOSED_BOOK_TASKS } from './closed-book.js';
import { medodysseyScoring } from './medodyssey-scoring.js';
import { answeredRight, type ScoreWithInterval, scoreOf } from './scored-share.js';

/** One dataset of a closed-book run, beside the same model's run with context. */
export interface ClosedBookTask {
  /** `En.NIAH`, `Zh.KG` … */
  key: string;
  /** What the scores are (`ESM accuracy`, `ESM micro F1`). */
  statistic: string;
  /** Without context (the closed-book run). */
  closedBook: ScoreWithInterval;
  /** The sample ids the model answers right without context (micro F1 tasks: every gold item and nothing else). */
  known: string[];
  /** With context, every item (null: no run with context). */
  withContext: ScoreWithInterval | null;
  /** With context, the known items left out (null: no run with context). */
  withContextUnknownOnly: ScoreWithInterval | null;
}

/** A closed-book run and the run with context it is paired with. */
export interface ClosedBookComparison {
  closedBookRunId: string;
  /** Same dataset and model, without `--closed-book`; null when the store has none. */
  contextRunId: string | null;
  label: string;
  tasks: ClosedBookTask[];
}

export const isClosedBookRun = (run: RunRecord): boolean => run.parameters.closedBook === true;

/** The run with context of the same dataset and model (settings equal but `--closed-book`, --task, --limit), the latest. */
export function contextRunOf<Entry extends { run: RunRecord }>(
  closed: RunRecord,
  runs: readonly Entry[],
): Entry | undefined {
  const { closedBook: _closed, task: _task, limit: _limit, ...settings } = closed.parameters;
  const same = (run: RunRecord) => {
    const { task: _t, limit: _l, ...others } = run.parameters;
    return JSON.stringify(others) === JSON.stringify(settings);
  };
  return runs
    .filter(
      ({ run }) =>
        !isClosedBookRun(run) &&
        run.datasetId === closed.datasetId &&
        JSON.stringify(run.model) === JSON.stringify(closed.model) &&
        same(run),
    )
    .sort((left, right) => right.run.createdAt.localeCompare(left.run.createdAt))[0];
}

const windowOf = (run: RunRecord) => (run.model.contextWindow as number | null | undefined) ?? null;

/** The rows of `task` a closed-book comparison counts: closed-book tasks, levels within the window. */
function countedRows<Row extends ScoredRow>(task: ScoredTask, rows: readonly Row[], run: RunRecord): Row[] {
  return rows.filter(
    (row) => CLOSED_BOOK_TASKS.has(row.task) && task.includes(row) && countedInTables(row, windowOf(run)),
  );
}

/**
 * One dataset of a closed-book run: its score without context, the items answered right without
 * it, and (with the run with context's rows) the score with context over every item the
 * closed-book run asked and over the others only; undefined when the run has none of it.
 */
export function closedBookTask(
  task: ScoredTask,
  closed: { run: RunRecord; rows: readonly ScoredRow[] },
  context: { run: RunRecord; rows: readonly ScoredRow[] } | undefined,
  settings?: IntervalSettings,
): ClosedBookTask | undefined {
  const closedRows = countedRows(task, closed.rows, closed.run);
  if (closedRows.length === 0) return undefined;
  const known = new Set(closedRows.filter((row) => answeredRight(task, row)).map((row) => row.sampleId));
  const asked = new Set(closedRows.map((row) => row.sampleId));
  const contextRows = context
    ? countedRows(task, context.rows, context.run).filter((row) => asked.has(row.sampleId))
    : undefined;
  return {
    key: task.key,
    statistic: task.statistic,
    closedBook: scoreOf(task, closedRows, settings),
    known: [...known].sort(),
    withContext: contextRows ? scoreOf(task, contextRows, settings) : null,
    withContextUnknownOnly: contextRows
      ? scoreOf(
          task,
          contextRows.filter((row) => !known.has(row.sampleId)),
          settings,
        )
      : null,
  };
}

/**
 * Every closed-book run with the model's run with context: per dataset (ESM, as Figure 2), the
 * score without context, the items answered right without it, and the score with context over
 * every item and over the others only (the long-context score memory cannot explain).
 */
export function closedBookComparisons(
  runs: ReadonlyArray<{ run: RunRecord; results: readonly StoredResult[] }>,
  labels: ReadonlyMap<string, string>,
  settings?: IntervalSettings,
): ClosedBookComparison[] {
  return runs
    .filter(({ run }) => isClosedBookRun(run))
    .map(({ run, results }) => {
      const context = contextRunOf(run, runs);
      const tasks = medodysseyScoring
        .tasks('esm', results)
        .flatMap(
          (task) =>
            closedBookTask(
              task,
              { run, rows: results },
              context && { run: context.run, rows: context.results },
              settings,
            ) ?? [],
        );
      return {
        closedBookRunId: run.id,
        contextRunId: context?.run.id ?? null,
        label: labels.get(run.id) ?? run.label,
        tasks,
      };
    });
}
