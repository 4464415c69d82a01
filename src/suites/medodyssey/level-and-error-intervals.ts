import {
  type IntervalSettings,
  meanInterval,
  type ReportInterval,
  reportInterval,
} from '../../metrics/uncertainty/index.js';
import { countedInTables, MEDICAL_DATASETS, medicalScore, type ResultLike } from './aggregate.js';
import { LANGUAGES } from './constants.js';
import { MEDODYSSEY_METRICS } from './medodyssey-labels.js';
import { medodysseyUnitOf } from './tally-intervals.js';

/** dataset (`kg-en` …) → level → the 95% interval (×100) of Figure 5's (ESM) or Figure A4's (SSM) score. */
export type ByLevelIntervals = Record<string, Record<string, ReportInterval>>;

/**
 * The intervals of Figures 5 and A4: each medical dataset's score at each level, as Tables 2/A4
 * give a cell its interval (`medicalScore`: micro F1 by the bootstrap, accuracy by Wilson; every
 * sample its own unit).
 */
export function byLevelIntervals(
  rowsOf: (task: string) => readonly ResultLike[],
  metric: 'esm' | 'ssm',
  settings: IntervalSettings,
): ByLevelIntervals {
  const intervals: ByLevelIntervals = {};
  for (const { task, language } of MEDICAL_DATASETS) {
    const rows = rowsOf(task).filter((row) => row.params.language === language);
    for (const level of new Set(rows.map((row) => Number(row.params.level)))) {
      const atLevel = rows.filter((row) => Number(row.params.level) === level);
      const cell = medicalScore({ results: atLevel, task, language, metric, intervals: settings });
      const interval = cell?.intervals?.f1 ?? cell?.intervals?.accuracy;
      if (interval)
        intervals[`${task}-${language}`] = { ...intervals[`${task}-${language}`], [level]: interval };
    }
  }
  return intervals;
}

/** The 95% intervals (×100) of the NIAH error analysis's rates of wrong answers: all, per needle type, per depth. */
export interface NiahErrorIntervals {
  errors: ReportInterval;
  byNeedleType: Record<string, ReportInterval>;
  byDepth: Record<string, ReportInterval>;
}

/** The share wrong of some rows with its interval, clustered by needle (Wilson at the needles where all agree). */
function wrongShare(rows: readonly ResultLike[], metric: string, settings: IntervalSettings): ReportInterval {
  const wrong = rows.map((row) => ((row.scores[metric] ?? 0) === 0 ? 1 : 0));
  const units = rows.map((row, index) => medodysseyUnitOf(row) ?? `sample ${index}`);
  return reportInterval(meanInterval(wrong, { units, ...settings }), 100);
}

const groupsOf = (rows: readonly ResultLike[], param: string) => {
  const groups = new Map<string, ResultLike[]>();
  for (const row of rows) {
    const key = String(row.params[param]);
    groups.get(key)?.push(row) ?? groups.set(key, [row]);
  }
  return groups;
};

/**
 * language → metric → the intervals of the NIAH error analysis (`niahErrors`): the rows within
 * the model's window, resampled by needle, as the NIAH scores are.
 */
export function niahErrorIntervals(
  rows: readonly ResultLike[],
  contextWindow: number | null,
  settings: IntervalSettings,
): Record<string, Record<string, NiahErrorIntervals>> {
  const intervals: Record<string, Record<string, NiahErrorIntervals>> = {};
  for (const language of LANGUAGES) {
    const counted = rows.filter(
      (row) => row.task === 'niah' && row.params.language === language && countedInTables(row, contextWindow),
    );
    if (counted.length === 0) continue;
    for (const metric of MEDODYSSEY_METRICS) {
      const share = (group: readonly ResultLike[]) => wrongShare(group, metric, settings);
      const by = (param: string) =>
        Object.fromEntries([...groupsOf(counted, param)].map(([key, group]) => [key, share(group)]));
      intervals[language] = {
        ...intervals[language],
        [metric]: { errors: share(counted), byNeedleType: by('needleType'), byDepth: by('depth') },
      };
    }
  }
  return intervals;
}
