import type { RunWithResults } from '../core/run-record.js';
import { type RankIntervals, rankedVariants } from '../core/scored-task.js';
import type { Suite } from '../core/suite.js';
import { rankIntervals } from '../metrics/rank-intervals.js';

/**
 * A report's leaderboards with rank intervals (`rankIntervals`): one per variant of the suite's
 * scoring that the report shows (`--metric` narrows them), over the report's runs, with the
 * report's B and seed; none for a suite without scoring or fewer than two runs. Runs sharing a label are told apart by `#id`.
 */
export function reportRanks(
  suite: Suite,
  runs: readonly RunWithResults[],
  options: { metrics?: readonly string[] | undefined; resamples?: number; seed?: number } = {},
): RankIntervals[] {
  const { metrics, ...settings } = options;
  if (!suite.scoring || runs.length < 2) return [];
  const shared = (label: string) => runs.filter(({ run }) => run.label === label).length > 1;
  const ranked = runs.map(({ run, results }) => ({
    runId: run.id,
    label: shared(run.label) ? `${run.label} #${run.id.slice(0, 6)}` : run.label,
    rows: results,
    counted: (row: (typeof results)[number]) => suite.counts?.(row, run) ?? true,
  }));
  return rankedVariants(suite.scoring)
    .filter((variant) => !metrics || metrics.includes(variant))
    .map((variant) => rankIntervals(suite.scoring!, variant, ranked, settings));
}
