import type { StoredResult } from '../../core/run-record.js';
import {
  type IntervalSettings,
  meanInterval,
  meanOfMeansInterval,
  type ReportInterval,
  reportInterval,
  type Stratum,
  stratumOf,
} from '../../metrics/uncertainty/index.js';
import { type IntervalRow, intervalsLongTable } from '../../report/interval-text.js';

type IntervalsByKey = Record<string, ReportInterval>;

/** The 95% intervals (×100) of a run's MedEureka scores, beside each score of the report. */
export interface MedEurekaIntervals {
  /** dataset → metric: Wilson for Exact HR@n (a proportion of queries), the bootstrap over queries for MRR@n. */
  datasets: Record<string, IntervalsByKey>;
  /** The plain mean of dataset scores: a stratified bootstrap (each dataset's queries resampled on their own). */
  average: IntervalsByKey;
  byDataType: Record<string, IntervalsByKey>;
  byLanguage: Record<string, IntervalsByKey>;
  byGranularity: Record<string, IntervalsByKey>;
}

/**
 * Intervals of every score of one run: each query is a unit (MedEureka averages over queries);
 * group means (data type, language, granularity, all) are means of dataset means, so their
 * intervals resample each dataset apart. Dataset d's bootstrap is seeded seed + d.
 */
export function medeurekaIntervals(options: {
  byDataset: ReadonlyArray<readonly [string, readonly StoredResult[]]>;
  metrics: readonly string[];
  groupOf: Record<'byDataType' | 'byLanguage' | 'byGranularity', (name: string) => string | undefined>;
  settings: IntervalSettings;
}): MedEurekaIntervals {
  const { byDataset, metrics, settings } = options;
  const intervals: MedEurekaIntervals = {
    datasets: {},
    average: {},
    byDataType: {},
    byLanguage: {},
    byGranularity: {},
  };
  for (const metric of metrics) {
    const strata = new Map<string, Stratum>();
    byDataset.forEach(([name, rows], index) => {
      const values = rows.map((row) => row.scores[metric] ?? 0);
      strata.set(name, stratumOf(values, { resamples: settings.resamples, seed: settings.seed + index }));
      intervals.datasets[name] ??= {};
      intervals.datasets[name]![metric] = reportInterval(meanInterval(values, settings), 100);
    });
    intervals.average[metric] = reportInterval(meanOfMeansInterval([...strata.values()], settings), 100);
    for (const field of ['byDataType', 'byLanguage', 'byGranularity'] as const) {
      const groups = new Map<string, Stratum[]>();
      for (const [name, stratum] of strata) {
        const group = options.groupOf[field](name);
        if (group !== undefined) groups.get(group)?.push(stratum) ?? groups.set(group, [stratum]);
      }
      for (const [group, members] of groups) {
        intervals[field][group] ??= {};
        intervals[field][group]![metric] = reportInterval(meanOfMeansInterval(members, settings), 100);
      }
    }
  }
  return intervals;
}

/** The report's runs as the intervals table reads them. */
interface RunScores {
  label: string;
  datasets: Record<string, Record<string, number>>;
  average: Record<string, number>;
  intervals?: MedEurekaIntervals;
}

/** MRR@10 and Exact HR@10 of each dataset and their average, with 95% intervals; absent without intervals. */
export function medeurekaIntervalsTable(runs: readonly RunScores[]) {
  const shown = ['mrr@10', 'hr@10'];
  const name = (metric: string) => metric.replace(/^mrr@/, 'MRR@').replace(/^hr@/, 'Exact HR@');
  const rows: IntervalRow[] = runs.flatMap((run) => {
    const intervals = run.intervals;
    if (!intervals) return [];
    return [
      ...Object.entries(run.datasets).flatMap(([dataset, scores]) =>
        shown.map((metric) => ({
          label: run.label,
          score: `${dataset} ${name(metric)}`,
          value: scores[metric],
          interval: intervals.datasets[dataset]?.[metric],
        })),
      ),
      ...shown.map((metric) => ({
        label: run.label,
        score: `Avg. ${name(metric)}`,
        value: run.average[metric],
        interval: intervals.average[metric],
      })),
    ];
  });
  return intervalsLongTable({
    name: 'intervals',
    heading: 'MedEureka (%) with 95% intervals.',
    clustering: 'over queries (averages: each dataset resampled apart)',
    rows,
  });
}
