import {
  type IntervalSettings,
  meanInterval,
  type ReportInterval,
  reportInterval,
} from '../../metrics/uncertainty/index.js';
import { type IntervalRow, intervalsLongTable } from '../../report/interval-text.js';

/**
 * The unit a CLUE score's items cluster by (`Suite.unitOf`): a LongHealth patient (all questions
 * on one patient's documents, every prompt of each, share them); any other item is its own unit.
 */
export function clueUnitOf(result: {
  task: string;
  params: Readonly<Record<string, unknown>>;
}): string | undefined {
  if (result.task !== 'longhealth' || typeof result.params.question !== 'string') return undefined;
  // Question ids are `<patient>-q<index>` (load-tasks.ts).
  return `patient ${result.params.question.replace(/-q\d+$/, '')}`;
}

/** A metric's per-item values of one dataset, with the unit each clusters by. */
export type ItemValues = Array<{ value: number; unit: string | undefined }>;

/** dataset → metric → the 95% interval of the score ×100 (Wilson for 0/1 items, else the bootstrap by unit). */
export function clueIntervals(
  values: Record<string, Record<string, ItemValues>>,
  settings: IntervalSettings,
): Record<string, Record<string, ReportInterval>> {
  return Object.fromEntries(
    Object.entries(values).map(([dataset, metrics]) => [
      dataset,
      Object.fromEntries(
        Object.entries(metrics).map(([metric, items]) => {
          const units = items.map((item, index) => item.unit ?? `item ${index}`);
          const interval = meanInterval(
            items.map((item) => item.value),
            { units, ...settings },
          );
          return [metric, reportInterval(interval, 100)];
        }),
      ),
    ]),
  );
}

/** The report's runs as the intervals table reads them. */
interface RunScores {
  label: string;
  scores: Record<string, Record<string, number>>;
  intervals?: Record<string, Record<string, ReportInterval>>;
}

/** Every score of every run with its 95% interval, a row each; absent without intervals (`--no-intervals`). */
export function clueIntervalsTable(runs: readonly RunScores[]) {
  const rows: IntervalRow[] = runs.flatMap((run) =>
    run.intervals
      ? Object.entries(run.scores).flatMap(([dataset, metrics]) =>
          Object.entries(metrics).map(([metric, value]) => ({
            label: run.label,
            score: `${dataset} ${metric}`,
            value,
            interval: run.intervals![dataset]?.[metric],
          })),
        )
      : [],
  );
  return intervalsLongTable({
    name: 'intervals',
    heading: 'CLUE scores ×100 with their 95% intervals.',
    clustering: 'over items, LongHealth clustered by patient',
    rows,
  });
}
