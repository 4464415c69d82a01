import type { ScoredRow, ScoredTask, SuiteScoring } from '../../core/scored-task.js';
import { bootstrapSettings, holmAdjust } from '../../metrics/uncertainty/index.js';
import {
  averageOfTasks,
  type ComparisonSettings,
  comparePairs,
  type Pair,
  type PairedDifference,
  type TaskDifference,
} from './paired-comparison.js';

/** One run's side of a comparison: its rows, and which of them its suite counts (NIAH: levels within its window). */
export interface CompareRunSide {
  runId: string;
  label: string;
  rows: readonly ScoredRow[];
  counted(row: ScoredRow): boolean;
}

/** The samples of a task only one run holds (ids sorted, the first 20 named). */
export interface Unpaired {
  count: number;
  ids: string[];
}

export interface TaskComparison extends PairedDifference {
  task: string;
  statistic: string;
  /** The p-value after Holm's adjustment across the compared tasks. */
  pHolm: number;
  /** Samples both hold that one run does not count (a NIAH level beyond its window). */
  notCounted: number;
  /** Samples of the task held by A only, and by B only: reported, never paired. */
  onlyInA: Unpaired;
  onlyInB: Unpaired;
}

/** `medbench compare` of two runs of one suite under one metric variant. */
export interface RunComparison {
  variant: string;
  a: { runId: string; label: string };
  b: { runId: string; label: string };
  resamples: number;
  seed: number;
  level: number;
  /** The tasks both runs hold pairs of, in the report's order. */
  tasks: TaskComparison[];
  /** Tasks only one run holds a pair of (or none counts): not compared. */
  uncompared: Array<{ task: string; a: number; b: number }>;
  /** The mean over the compared tasks, as the paper averages its datasets; null when none. */
  overall: (PairedDifference & { tasks: number }) | null;
}

const unpaired = (ids: string[]): Unpaired => ({ count: ids.length, ids: ids.sort().slice(0, 20) });

/** A task's rows of both runs paired by sample id; what only one holds or does not count, apart. */
function pairsOf(task: ScoredTask, a: CompareRunSide, b: CompareRunSide) {
  const rowsB = new Map(b.rows.filter(task.includes).map((row) => [row.sampleId, row]));
  const pairs: Pair[] = [];
  const onlyInA: string[] = [];
  let notCounted = 0;
  let inA = 0;
  for (const row of a.rows) {
    if (!task.includes(row)) continue;
    inA++;
    const other = rowsB.get(row.sampleId);
    rowsB.delete(row.sampleId);
    if (!other) onlyInA.push(row.sampleId);
    else if (a.counted(row) && b.counted(other)) pairs.push({ a: row, b: other });
    else notCounted++;
  }
  return {
    pairs,
    onlyInA,
    onlyInB: [...rowsB.keys()],
    notCounted,
    inA,
    inB: rowsB.size + inA - onlyInA.length,
  };
}

/**
 * Two runs of one suite, task by task (the suite's report rows under `variant`): samples paired
 * by id, each task's B − A with its paired-bootstrap interval and test, Holm's adjustment across
 * the tasks, and their mean as the overall row.
 */
export function compareRuns(
  scoring: SuiteScoring,
  variant: string,
  sides: { a: CompareRunSide; b: CompareRunSide },
  options: ComparisonSettings = {},
): RunComparison {
  const settings = bootstrapSettings(options);
  const { a, b } = sides;
  const compared: Array<{ task: ScoredTask; difference: TaskDifference; rest: ReturnType<typeof pairsOf> }> =
    [];
  const uncompared: RunComparison['uncompared'] = [];
  for (const task of scoring.tasks(variant, [...a.rows, ...b.rows])) {
    const rest = pairsOf(task, a, b);
    if (rest.pairs.length === 0) {
      if (rest.inA + rest.inB > 0) uncompared.push({ task: task.key, a: rest.inA, b: rest.inB });
      continue;
    }
    compared.push({ task, difference: comparePairs(task, rest.pairs, settings), rest });
  }
  const adjusted = holmAdjust(compared.map((entry) => entry.difference.p));
  const tasks = compared.map(({ task, difference, rest }, index): TaskComparison => {
    const { replicates: _replicates, ...figures } = difference;
    return {
      task: task.key,
      statistic: task.statistic,
      ...figures,
      pHolm: adjusted[index]!,
      notCounted: rest.notCounted,
      onlyInA: unpaired(rest.onlyInA),
      onlyInB: unpaired(rest.onlyInB),
    };
  });
  return {
    variant,
    a: { runId: a.runId, label: a.label },
    b: { runId: b.runId, label: b.label },
    ...settings,
    tasks,
    uncompared,
    overall:
      compared.length === 0
        ? null
        : {
            ...averageOfTasks(
              compared.map((entry) => entry.difference),
              settings,
            ),
            tasks: compared.length,
          },
  };
}
