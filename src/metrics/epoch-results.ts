import {
  type EpochReducerName,
  type EpochSettings,
  epochOfSampleId,
  epochSettingsOf,
} from '../core/epochs.js';
import type { RunWithResults, ScoreRow } from '../core/run-record.js';
import type { SampleScores } from '../core/sample.js';
import type { Suite } from '../core/suite.js';
import { type EpochReducer, reduceEpochs } from './uncertainty/index.js';

/** A reducer's name as `reduceEpochs` takes it (`pass@3` → `{ passAt: 3 }`), k at most the epochs there are. */
export function epochReducerOf(name: EpochReducerName, epochs: number): EpochReducer {
  const passAt = /^pass@(\d+)$/.exec(name);
  return passAt ? { passAt: Math.min(Number(passAt[1]), epochs) } : (name as EpochReducer);
}

/** What a sample's epochs add up to: tokens and cost summed (null when no epoch has them). */
function summed(rows: readonly ScoreRow[], field: 'inputTokens' | 'outputTokens' | 'cost'): number | null {
  let total: number | null = null;
  for (const row of rows) if (row[field] !== null) total = (total ?? 0) + (row[field] as number);
  return total;
}

/** One sample from its epochs' rows: every metric reduced, tokens and cost summed, answered when any epoch was. */
function reducedRow<Row extends ScoreRow>(
  rows: readonly Row[],
  sampleId: string,
  reducer: EpochReducerName,
): Row {
  const first = rows[0]!;
  const metrics = new Set(rows.flatMap((row) => Object.keys(row.scores)));
  const scores: SampleScores = {};
  for (const metric of metrics) {
    const values = rows.map((row) => row.scores[metric]).filter((value) => value !== undefined);
    scores[metric] = reduceEpochs(values, epochReducerOf(reducer, values.length));
  }
  const answered = rows.find((row) => row.status === 'ok') ?? first;
  return {
    ...answered,
    sampleId,
    scores,
    inputTokens: summed(rows, 'inputTokens'),
    outputTokens: summed(rows, 'outputTokens'),
    cost: summed(rows, 'cost'),
  };
}

/**
 * A run of `--epochs K`'s results, one per sample: each sample's epoch rows (`<id>#epoch<e>`)
 * reduced by its task's reducer (`epochSettingsOf`). A run of one epoch: its results as they are.
 */
export function reduceEpochResults(run: RunWithResults, settings = epochSettingsOf(run.run)): RunWithResults {
  return settings ? { run: run.run, results: reduceEpochRows(run.results, settings) } : run;
}

/**
 * Any rows of a run of `--epochs K` (stored results, or the light score rows `compare` and the
 * viewer's ranks read), one per sample, reduced as `reduceEpochResults` does; without epoch
 * settings, the rows as they are.
 */
export function reduceEpochRows<Row extends ScoreRow>(
  rows: readonly Row[],
  settings: EpochSettings | undefined,
): readonly Row[] {
  if (!settings) return rows;
  const bySample = new Map<string, Row[]>();
  for (const row of rows) {
    const { sampleId } = epochOfSampleId(row.sampleId);
    const group = bySample.get(sampleId);
    if (group) group.push(row);
    else bySample.set(sampleId, [row]);
  }
  return [...bySample].map(([sampleId, group]) =>
    reducedRow(group, sampleId, reducerOfTask(settings, group[0]!.task)),
  );
}

function reducerOfTask(settings: EpochSettings, task: string): EpochReducerName {
  return settings.reducers[task] ?? 'mean';
}

/**
 * The suite whose report and leaderboard see one result per sample, each sample's epochs reduced
 * (`reduceEpochResults`); runs of one epoch are read as they are.
 */
export function withEpochs<Report>(suite: Suite<Report>): Suite<Report> {
  return {
    ...suite,
    report: (runs, options) =>
      suite.report(
        runs.map((run) => reduceEpochResults(run)),
        options,
      ),
    leaderboard: (runs) => suite.leaderboard(runs.map((run) => reduceEpochResults(run))),
  };
}
