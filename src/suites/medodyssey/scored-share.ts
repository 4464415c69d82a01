import type { ScoredRow, ScoredTask } from '../../core/scored-task.js';
import {
  additiveBootstrap,
  type IntervalSettings,
  meanInterval,
  type ReportInterval,
  reportInterval,
  totalsOf,
} from '../../metrics/uncertainty/index.js';

/** A score ×100 over some results, how many, and (when the report computes them) its 95% interval. */
export interface ScoreWithInterval {
  /** ×100; null when no result counts. */
  score: number | null;
  samples: number;
  interval?: ReportInterval;
}

/**
 * A scored task's score over `rows` (those it includes), ×100, with its 95% interval when
 * `settings` are given: 0/1 scores by `meanInterval` (Wilson, or the bootstrap over the task's
 * units: NIAH needles), micro F1 by the percentile bootstrap of its additive sums.
 */
export function scoreOf(
  task: ScoredTask,
  rows: readonly ScoredRow[],
  settings?: IntervalSettings,
): ScoreWithInterval {
  const byUnit = new Map<string, number[]>();
  for (const row of rows) {
    const sums = task.sums(row);
    const unit = task.unit(row);
    const total = byUnit.get(unit);
    if (total) for (const [index, value] of sums.entries()) total[index]! += value;
    else byUnit.set(unit, [...sums]);
  }
  if (rows.length === 0) return { score: null, samples: 0 };
  const units = [...byUnit.values()];
  if (!settings) return { score: 100 * task.score(totalsOf(units)), samples: rows.length };
  // 0/1 scores as every report interval of them: Wilson for independent samples, else the cluster bootstrap.
  const interval = task.binary
    ? meanInterval(
        rows.map((row) => task.sums(row)[0]!),
        { units: rows.map((row) => task.unit(row)), ...settings },
      )
    : additiveBootstrap(units, task.score, { ...settings, n: rows.length });
  return { score: 100 * interval.estimate, samples: rows.length, interval: reportInterval(interval, 100) };
}

/** A result the task counts fully right: a 0/1 score of 1, or (micro F1) every gold item and nothing else. */
export function answeredRight(task: ScoredTask, row: ScoredRow): boolean {
  const sums = task.sums(row);
  if (task.binary) return sums[0] === 1;
  const [tp, fp, fn] = sums;
  return tp! > 0 && fp === 0 && fn === 0;
}
