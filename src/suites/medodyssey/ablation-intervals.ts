import {
  type IntervalSettings,
  meanInterval,
  type ReportInterval,
  reportInterval,
} from '../../metrics/uncertainty/index.js';
import { countingSetting } from './aggregate.js';
import type { Tally } from './tally-intervals.js';

/** A model's label in Figure 6: its display label without the run id a shared label gets (` #1a2b3c`). */
export const ablationLabel = (label: string) => label.replace(/ #[0-9a-f]{6}$/, '');

/** model → setting → the 95% intervals (of the fraction correct) of Figure 6's tallies of its runs merged. */
export type MergedCountingIntervals = Record<
  string,
  Record<string, { all: ReportInterval; byType: Record<string, ReportInterval> }>
>;

interface Scored {
  score: number;
  unit: string;
}

const intervalOf = (rows: readonly Scored[], settings: IntervalSettings) =>
  reportInterval(
    meanInterval(
      rows.map((row) => row.score),
      { units: rows.map((row) => row.unit), ...settings },
    ),
  );

/**
 * The intervals of Figure 6's tallies where runs of one label are merged (a model's settings run
 * apart): the merged rows resampled by the rule of every Counting tally, each sample its own unit,
 * a sample is its dataset's sample id, so a sample two runs both hold is one unit (its rows drawn
 * together), Wilson's interval where every unit is one 0/1 row.
 */
export function mergedCountingIntervals(
  runs: ReadonlyArray<{
    run: { id: string; datasetId: string };
    results: ReadonlyArray<{
      sampleId: string;
      task: string;
      params: Record<string, unknown>;
      scores: Record<string, number>;
    }>;
  }>,
  labels: ReadonlyMap<string, string>,
  settings: IntervalSettings,
): MergedCountingIntervals {
  const byModel = new Map<
    string,
    Map<string, { runs: Set<string>; rows: Array<Scored & { type: string }> }>
  >();
  for (const { run, results } of runs) {
    const model = ablationLabel(labels.get(run.id) ?? run.id);
    const bySetting = byModel.get(model) ?? new Map();
    byModel.set(model, bySetting);
    for (const result of results) {
      if (result.task !== 'counting') continue;
      const setting = countingSetting(result.params);
      const entry = bySetting.get(setting) ?? { runs: new Set(), rows: [] };
      bySetting.set(setting, entry);
      entry.runs.add(run.id);
      entry.rows.push({
        score: result.scores.esm ?? 0,
        unit: `${run.datasetId}/${result.sampleId}`,
        type: String(result.params.countingType),
      });
    }
  }
  const intervals: MergedCountingIntervals = {};
  for (const [model, bySetting] of byModel)
    for (const [setting, { runs: merged, rows }] of bySetting) {
      // One run's tally has its own interval (`countingSettings`).
      if (merged.size < 2) continue;
      const types = [...new Set(rows.map((row) => row.type))];
      intervals[model] = {
        ...intervals[model],
        [setting]: {
          all: intervalOf(rows, settings),
          byType: Object.fromEntries(
            types.map((type) => [
              type,
              intervalOf(
                rows.filter((row) => row.type === type),
                settings,
              ),
            ]),
          ),
        },
      };
    }
  return intervals;
}

/** Gives Figure 6's merged tallies (model → setting) the intervals of their merged rows. */
export function withMergedIntervals(
  byModel: ReadonlyMap<string, Record<string, { all: Tally; byType: Record<string, Tally> }>>,
  intervals: MergedCountingIntervals | undefined,
): void {
  for (const [model, bySetting] of Object.entries(intervals ?? {}))
    for (const [setting, merged] of Object.entries(bySetting)) {
      const entry = byModel.get(model)?.[setting];
      if (!entry) continue;
      entry.all.interval = merged.all;
      for (const [type, interval] of Object.entries(merged.byType)) {
        const tally = entry.byType[type];
        if (tally) tally.interval = interval;
      }
    }
}
