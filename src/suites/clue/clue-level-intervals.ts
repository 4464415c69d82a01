import type { ScoredRow, ScoredTask } from '../../core/scored-task.js';
import {
  additiveReplicates,
  type IntervalSettings,
  meanOfMeansInterval,
  type ReportInterval,
  reportInterval,
  type Stratum,
  seedOf,
  totalsOf,
} from '../../metrics/uncertainty/index.js';
import { CLUE_LEVELS, clueScoring } from './clue-scoring.js';

/** A dataset's score (`clueScoring`'s `levels` task) as a stratum: its estimate and the replicates of its units resampled. */
function datasetStratum(task: ScoredTask, rows: readonly ScoredRow[], settings: IntervalSettings): Stratum {
  const units = new Map<string, Float64Array>();
  for (const row of rows.filter(task.includes)) {
    const sums = task.sums(row);
    const unit = units.get(task.unit(row)) ?? new Float64Array(sums.length);
    units.set(task.unit(row), unit);
    sums.forEach((value, dim) => {
      unit[dim]! += value;
    });
  }
  const unitSums = [...units.values()];
  return {
    estimate: task.score(totalsOf(unitSums)),
    // Seeded per dataset as the leaderboard's rank intervals are: the same resamples of its units.
    replicates: additiveReplicates(unitSums, task.score, {
      resamples: settings.resamples,
      seed: seedOf(`${settings.seed}/${task.key}`),
    }),
    n: unitSums.length,
  };
}

/**
 * The 95% intervals (×100) of a run's Level 1 and Level 2 scores: each the mean of its three
 * datasets' scores (a dataset's the mean of its metrics, weighted as the report averages), each
 * dataset's units resampled on their own (LongHealth by patient), the level's replicate the mean
 * of its datasets' (`meanOfMeansInterval`); null for a level the run does not complete.
 */
export function clueLevelIntervals(
  rows: readonly ScoredRow[],
  settings: IntervalSettings,
): { level1: ReportInterval | null; level2: ReportInterval | null } {
  const tasks = clueScoring.tasks('levels', rows);
  const [level1, level2] = CLUE_LEVELS.map((datasets) => {
    const members = tasks.filter((task) => (datasets as readonly string[]).includes(task.key));
    if (members.length !== datasets.length) return null;
    const strata = members.map((task) => datasetStratum(task, rows, settings));
    return reportInterval(meanOfMeansInterval(strata, settings), 100);
  });
  return { level1: level1!, level2: level2! };
}
