import type { ScoredRow, ScoredTask } from '../../core/scored-task.js';
import {
  additiveReplicates,
  bootstrapPValue,
  bootstrapSettings,
  mcnemarExact,
  minimumDetectableDifference,
  percentileBounds,
  seedOf,
  standardDeviation,
  totalsOf,
} from '../../metrics/uncertainty/index.js';

/** B, seed and level of every interval of a comparison (defaults: 1000, the module's seed, 0.95). */
export interface ComparisonSettings {
  resamples?: number;
  seed?: number;
  level?: number;
}

/** Two runs on one task (or their average over tasks): scores, B − A with its interval, the test. */
export interface PairedDifference {
  /** Pairs both runs count. */
  n: number;
  /** Units resampled (needles, patients, queries, or the samples themselves). */
  units: number;
  /** Each run's score on the pairs (a fraction in [0, 1]). */
  a: number;
  b: number;
  /** B − A and its percentile interval from the paired (cluster) bootstrap. */
  difference: number;
  lower: number;
  upper: number;
  /** McNemar's exact test for 0/1 scores of single-sample units; otherwise the paired bootstrap's p. */
  test: 'McNemar (exact)' | 'paired bootstrap';
  /** 0/1 scores: pairs right under A only and under B only (null otherwise). */
  onlyA: number | null;
  onlyB: number | null;
  p: number;
  /**
   * The smallest true difference this comparison detects 80% of the time at the 5% level:
   * (z₀.₉₇₅ + z₀.₈) × the bootstrap standard error of B − A.
   */
  minimumDetectable: number;
}

/** One task's comparison and its bootstrap replicates of B − A (the overall row averages them). */
export interface TaskDifference extends PairedDifference {
  replicates: Float64Array;
}

/** Pairs of one task: the same sample in run A and in run B. */
export type Pair<Row = ScoredRow> = { a: Row; b: Row };

/** The scoring part of a task the comparison reads (of scored rows, or of the viewer's list rows). */
export interface PairedStatistic<Row = ScoredRow> extends Pick<ScoredTask, 'key' | 'score'> {
  unit(row: Row): string;
  sums(row: Row): number[];
}

const isBinary = (values: readonly number[]) => values.every((value) => value === 0 || value === 1);

/** Each unit's sums for A then B, side by side, in order of first appearance. */
function unitSumsOf<Row>(task: PairedStatistic<Row>, pairs: readonly Pair<Row>[], dims: number): number[][] {
  const units = new Map<string, number[]>();
  for (const pair of pairs) {
    const key = task.unit(pair.a);
    const sums = units.get(key) ?? units.set(key, new Array<number>(2 * dims).fill(0)).get(key)!;
    task.sums(pair.a).forEach((value, dim) => {
      sums[dim]! += value;
    });
    task.sums(pair.b).forEach((value, dim) => {
      sums[dims + dim]! += value;
    });
  }
  return [...units.values()];
}

/** The paired test: McNemar for 0/1 scores when every unit is one pair, the bootstrap's p otherwise. */
function pairedTest<Row>(
  task: PairedStatistic<Row>,
  pairs: readonly Pair<Row>[],
  units: number,
  replicates: Float64Array,
) {
  const a = pairs.map((pair) => task.sums(pair.a)[0]!);
  const b = pairs.map((pair) => task.sums(pair.b)[0]!);
  const binary = pairs.length > 0 && task.sums(pairs[0]!.a).length === 2 && isBinary(a) && isBinary(b);
  const onlyA = binary ? a.filter((value, index) => value === 1 && b[index] === 0).length : null;
  const onlyB = binary ? a.filter((value, index) => value === 0 && b[index] === 1).length : null;
  if (binary && units === pairs.length)
    return { test: 'McNemar (exact)' as const, onlyA, onlyB, p: mcnemarExact(onlyA!, onlyB!) };
  return {
    test: 'paired bootstrap' as const,
    onlyA,
    onlyB,
    p: replicates.length > 1 ? bootstrapPValue(replicates) : 1,
  };
}

/** (z₀.₉₇₅ + z₀.₈) × the replicates' standard deviation (the bootstrap standard error). */
function detectable(replicates: Float64Array): number {
  return minimumDetectableDifference({ n: 1, sd: standardDeviation(Array.from(replicates)) });
}

/**
 * Two runs on the pairs of one task: both scores read the same resampled units (the task's
 * `unit`: a needle, a patient, a query), so the interval is of the paired difference B − A.
 * The seed is the settings' seed mixed with the task's key: each task resamples on its own.
 */
export function comparePairs<Row>(
  task: PairedStatistic<Row>,
  pairs: readonly Pair<Row>[],
  settings: ComparisonSettings = {},
): TaskDifference {
  const { resamples, seed, level } = bootstrapSettings(settings);
  const dims = pairs.length > 0 ? task.sums(pairs[0]!.a).length : 0;
  const unitSums = unitSumsOf(task, pairs, dims);
  const scoreA = (totals: Float64Array) => task.score(totals.subarray(0, dims));
  const scoreB = (totals: Float64Array) => task.score(totals.subarray(dims));
  const totals = totalsOf(unitSums);
  const [a, b] = pairs.length === 0 ? [Number.NaN, Number.NaN] : [scoreA(totals), scoreB(totals)];
  const replicates =
    unitSums.length < 2
      ? new Float64Array(0)
      : additiveReplicates(unitSums, (sums) => scoreB(sums) - scoreA(sums), {
          resamples,
          seed: seedOf(`${seed}/${task.key}`),
        });
  const bounds = replicates.length > 0 ? percentileBounds(replicates, level) : { lower: b - a, upper: b - a };
  return {
    n: pairs.length,
    units: unitSums.length,
    a,
    b,
    difference: b - a,
    ...bounds,
    ...pairedTest(task, pairs, unitSums.length, replicates),
    minimumDetectable: replicates.length > 0 ? detectable(replicates) : Number.POSITIVE_INFINITY,
    replicates,
  };
}

/**
 * The average over tasks, as the papers average datasets: each run's mean of the task scores,
 * and B − A's interval from the mean of the tasks' replicates (each task resampled on its own).
 */
export function averageOfTasks(
  tasks: readonly TaskDifference[],
  settings: ComparisonSettings = {},
): PairedDifference {
  const { level } = bootstrapSettings(settings);
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const a = mean(tasks.map((task) => task.a));
  const b = mean(tasks.map((task) => task.b));
  // A task of fewer than two units has no replicates: its difference stands in every round.
  const rounds = Math.max(0, ...tasks.map((task) => task.replicates.length));
  const replicates = new Float64Array(rounds);
  for (let round = 0; round < rounds; round++)
    replicates[round] = mean(
      tasks.map((task) => (task.replicates.length > 0 ? task.replicates[round]! : task.difference)),
    );
  const bounds = replicates.length > 0 ? percentileBounds(replicates, level) : { lower: b - a, upper: b - a };
  return {
    n: tasks.reduce((sum, task) => sum + task.n, 0),
    units: tasks.reduce((sum, task) => sum + task.units, 0),
    a,
    b,
    difference: b - a,
    ...bounds,
    test: 'paired bootstrap',
    onlyA: null,
    onlyB: null,
    p: replicates.length > 0 ? bootstrapPValue(replicates) : 1,
    minimumDetectable: replicates.length > 0 ? detectable(replicates) : Number.POSITIVE_INFINITY,
  };
}
