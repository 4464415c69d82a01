import type { RankEntry, RankIntervals, ScoredRow, ScoredTask, SuiteScoring } from '../core/scored-task.js';
import {
  additiveReplicates,
  bootstrapPValue,
  bootstrapSettings,
  percentileBounds,
  ranksOf,
  seedOf,
} from './uncertainty/index.js';

/** One run on a leaderboard: its rows, and which of them its suite counts. */
export interface RankedRun {
  runId: string;
  label: string;
  rows: readonly ScoredRow[];
  counted(row: ScoredRow): boolean;
}

/**
 * Each run's bootstrap replicates of one task's score. The units are those any run has (a needle,
 * a sample); every run reads the same resampled units: one seed, one unit order, per task.
 */
function taskReplicates(
  task: ScoredTask,
  runs: readonly RankedRun[],
  settings: { resamples: number; seed: number },
): { scores: number[]; replicates: Float64Array[] } | undefined {
  const units = new Map<string, number>();
  const perRun = runs.map((run) => run.rows.filter((row) => task.includes(row) && run.counted(row)));
  for (const rows of perRun)
    for (const row of rows) if (!units.has(task.unit(row))) units.set(task.unit(row), units.size);
  if (units.size === 0 || perRun.some((rows) => rows.length === 0)) return undefined;
  const seed = seedOf(`${settings.seed}/${task.key}`);
  const scores: number[] = [];
  const replicates = perRun.map((rows) => {
    const dims = task.sums(rows[0]!).length;
    const unitSums = Array.from({ length: units.size }, () => new Float64Array(dims));
    const totals = new Float64Array(dims);
    for (const row of rows)
      task.sums(row).forEach((value, dim) => {
        unitSums[units.get(task.unit(row))!]![dim]! += value;
        totals[dim]! += value;
      });
    scores.push(task.score(totals));
    return units.size < 2
      ? new Float64Array(settings.resamples).fill(task.score(totals))
      : additiveReplicates(unitSums, (sums) => task.score(sums), { resamples: settings.resamples, seed });
  });
  return { scores, replicates };
}

/**
 * Bootstrap rank intervals of the runs on a leaderboard variant: each resample draws every task's
 * units (independently per task, the same units for every run), averages each run's task scores
 * as the leaderboard does, and ranks the runs; a run's interval is the 2.5th to 97.5th percentile
 * of its ranks. Neighbours (by average) are tested by the same resamples of their difference.
 */
export function rankIntervals(
  scoring: SuiteScoring,
  variant: string,
  runs: readonly RankedRun[],
  options: { resamples?: number; seed?: number; level?: number } = {},
): RankIntervals {
  const settings = bootstrapSettings(options);
  const tasks = scoring.tasks(
    variant,
    runs.flatMap((run) => run.rows),
  );
  const has = (run: RankedRun, task: ScoredTask) =>
    run.rows.some((row) => task.includes(row) && run.counted(row));
  const averaged = tasks.filter((task) => runs.some((run) => has(run, task)));
  const ranked = runs.filter((run) => averaged.length > 0 && averaged.every((task) => has(run, task)));
  const perTask = averaged.map((task) => taskReplicates(task, ranked, settings)!);
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const averages = ranked.map((_, run) => mean(perTask.map((task) => task.scores[run]!)));
  const replicateAverages = ranked.map((_, run) => {
    const values = new Float64Array(settings.resamples);
    for (let round = 0; round < settings.resamples; round++)
      values[round] = mean(perTask.map((task) => task.replicates[run]![round]!));
    return values;
  });
  const rankReplicates = ranked.map(() => new Float64Array(settings.resamples));
  for (let round = 0; round < settings.resamples; round++)
    ranksOf(replicateAverages.map((values) => values[round]!)).forEach((rank, run) => {
      rankReplicates[run]![round] = rank;
    });
  const ranks = ranksOf(averages);
  const order = ranked
    .map((_, run) => run)
    .sort((x, y) => ranks[x]! - ranks[y]! || ranked[x]!.label.localeCompare(ranked[y]!.label));
  const entries = order.map((run, position): RankEntry => {
    const below = order[position + 1];
    const difference =
      below === undefined
        ? undefined
        : replicateAverages[run]!.map((value, round) => value - replicateAverages[below]![round]!);
    const p = difference && ranked.length > 0 ? bootstrapPValue(difference) : null;
    return {
      runId: ranked[run]!.runId,
      label: ranked[run]!.label,
      average: averages[run]!,
      rank: ranks[run]!,
      ...percentileBounds(rankReplicates[run]!, settings.level),
      next: p === null ? null : { p, different: p < 1 - settings.level },
    };
  });
  return {
    variant,
    tasks: averaged.map((task) => task.key),
    ...settings,
    entries,
    unranked: runs.filter((run) => !ranked.includes(run)).map((run) => run.runId),
  };
}
