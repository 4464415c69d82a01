import type { SampleParams, SampleScores } from './sample.js';

/** The part of a stored result a scored task reads. */
export interface ScoredRow {
  sampleId: string;
  task: string;
  params: SampleParams;
  scores: SampleScores;
}

/**
 * One row of a suite's report written as a statistic of per-result sums, for the tests that
 * compare runs (`medbench compare`, the leaderboards' rank intervals): which results it holds,
 * the unit the paper averages over (resampled whole), what each result adds to the sums, and
 * the score those sums give. Sums make a resample cheap: a unit's sums are added once.
 */
export interface ScoredTask {
  /** Its name in the report (`En.NIAH`, `Zh.KG`, `meqsum`). */
  key: string;
  /** What the score is (`ESM accuracy`, `ESM micro F1`), as the report names it. */
  statistic: string;
  includes(row: ScoredRow): boolean;
  /** The unit resampled together: a needle, a patient, a query; the sample id when each sample stands alone. */
  unit(row: ScoredRow): string;
  /** What one result adds to the task's sums: `[score, 1]` for a mean, `[tp, fp, fn]` for micro F1. */
  sums(row: ScoredRow): number[];
  /** The task's score, a fraction in [0, 1], from the sums over its results. */
  score(totals: ArrayLike<number>): number;
  /** Every result scores 0 or 1 (`sums(row)[0]`), so McNemar's exact test applies. */
  binary: boolean;
}

/** A suite's report rows as scored tasks, under each metric variant it reports (ESM, SSM). */
export interface SuiteScoring {
  /** The variants, the default first. */
  variants: readonly string[];
  /**
   * The variants a leaderboard ranks by (rank intervals in the report and the viewer), each the
   * key of a leaderboard variant; absent: every variant.
   */
  leaderboards?: readonly string[];
  /**
   * The tasks under one variant, in the report's order; the overall score is their mean.
   * `rows`: the results at hand (for suites whose tasks are the datasets that were run).
   */
  tasks(variant: string, rows: readonly ScoredRow[]): ScoredTask[];
}

/** A run's place on a leaderboard of one metric variant: its average, rank and rank interval. */
export interface RankEntry {
  runId: string;
  label: string;
  /** The mean of the task scores (fractions in [0, 1]). */
  average: number;
  /** 1 = best; tied averages share the mean of their ranks. */
  rank: number;
  /** The 95% percentile interval of its rank over bootstrap resamples of every task's units. */
  lower: number;
  upper: number;
  /**
   * Against the next run down: the paired bootstrap's two-sided p of the difference of their
   * averages (both read the same resampled units), and whether it is below 0.05; null for the last.
   */
  next: { p: number; different: boolean } | null;
}

/** The rank intervals of a leaderboard variant, with how they were computed. */
export interface RankIntervals {
  variant: string;
  /** The tasks averaged (those at least one run has; a run lacking any of them is not ranked). */
  tasks: string[];
  resamples: number;
  seed: number;
  level: number;
  /** Best first. */
  entries: RankEntry[];
  /** Runs without a score on every averaged task. */
  unranked: string[];
}

/** A task whose score is the mean of one per-result metric. */
export function meanTask(
  options: Pick<ScoredTask, 'key' | 'statistic' | 'includes' | 'unit'> & { metric: string; binary: boolean },
): ScoredTask {
  const { metric, ...task } = options;
  return {
    ...task,
    sums: (row) => [row.scores[metric] ?? 0, 1],
    score: (totals) => (totals[1]! === 0 ? Number.NaN : totals[0]! / totals[1]!),
  };
}

/** The variants of a suite's scoring that its leaderboards rank by (`SuiteScoring.leaderboards`). */
export function rankedVariants(scoring: SuiteScoring | undefined): readonly string[] {
  return scoring?.leaderboards ?? scoring?.variants ?? [];
}
