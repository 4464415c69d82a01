import {
  bootstrapMicroScores,
  type IntervalSettings,
  meanInterval,
  type ReportInterval,
  reportInterval,
} from '../../metrics/uncertainty/index.js';

/** A count of correct samples of counted ones, and, in a report, its 95% interval (of the fraction correct). */
export interface Tally {
  correct: number;
  counted: number;
  interval?: ReportInterval;
}

/**
 * The unit a MedOdyssey score's samples cluster by (`Suite.unitOf`): a NIAH needle, whose samples
 * at every length and depth share its difficulty; any other sample is its own unit.
 */
export function medodysseyUnitOf(result: {
  task: string;
  params: Readonly<Record<string, unknown>>;
}): string | undefined {
  return result.task === 'niah' && result.params.needleId !== undefined
    ? `needle ${String(result.params.language)}/${String(result.params.needleId)}`
    : undefined;
}

/** The scores and units behind each tally, kept beside it until its interval is computed. */
const members = new WeakMap<Tally, { scores: number[]; units: string[] }>();

/**
 * Counts a sample's score in a tally and remembers it, with the unit it clusters by (a NIAH
 * needle; undefined: the sample is its own unit), for `withTallyIntervals`.
 */
export function addToTally(tally: Tally, score: number, unit: string | undefined): void {
  tally.counted++;
  tally.correct += score;
  const entry = members.get(tally) ?? { scores: [], units: [] };
  members.set(tally, entry);
  entry.units.push(unit ?? `sample ${entry.scores.length}`);
  entry.scores.push(score);
}

/**
 * Gives every tally found in `value` (objects, nested) its interval: Wilson for 0/1 scores of
 * independent samples, otherwise the percentile bootstrap over its units (`meanInterval`).
 */
export function withTallyIntervals<Value>(value: Value, settings: IntervalSettings): Value {
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const entry = members.get(node as Tally);
    if (entry && entry.scores.length > 0) {
      (node as Tally).interval = reportInterval(
        meanInterval(entry.scores, { units: entry.units, ...settings }),
      );
      return;
    }
    for (const child of Object.values(node)) visit(child);
  };
  visit(value);
  return value;
}

/** The intervals of a medical cell, ×100 like its figures: micro P/R/F1 by the bootstrap, or accuracy. */
export type MedicalIntervals = Partial<Record<'precision' | 'recall' | 'f1' | 'accuracy', ReportInterval>>;

/** A medical cell's intervals from its rows' counts (`prf`) or scores; every row is its own unit. */
export function medicalIntervals(
  rows: ReadonlyArray<{ tp: number; fp: number; fn: number; score: number }>,
  prf: boolean,
  settings: IntervalSettings,
): MedicalIntervals {
  if (rows.length === 0) return {};
  if (!prf)
    return {
      accuracy: reportInterval(
        meanInterval(
          rows.map((row) => row.score),
          settings,
        ),
        100,
      ),
    };
  const { precision, recall, f1 } = bootstrapMicroScores(rows, settings);
  return {
    precision: reportInterval(precision, 100),
    recall: reportInterval(recall, 100),
    f1: reportInterval(f1, 100),
  };
}
