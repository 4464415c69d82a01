import type { RunRecord, ScoreRow } from '../../core/run-record.js';
import type { GroupFigure } from '../../core/suite.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../../metrics/uncertainty/index.js';
import {
  countingBySetting,
  countingSetting,
  countingTable,
  isMainCountingSetting,
  medicalScore,
  niahTable,
} from './aggregate.js';
import { effectiveLengthFigures } from './effective-length-figures.js';
import { cellFigures } from './interval-figures.js';
import { datasetName, METRIC_NAMES } from './medodyssey-labels.js';
import { type Tally, withTallyIntervals } from './tally-intervals.js';

const MEDICAL = new Set(['kg', 'term', 'table', 'case']);
// The run page's intervals, as `report`'s defaults.
const SETTINGS = { resamples: DEFAULT_RESAMPLES, seed: DEFAULT_SEED };

/** A tally's accuracy figure, with its interval (of the fraction correct, here ×100). */
function accuracy(name: string, tally: Tally): GroupFigure {
  const { interval } = withTallyIntervals(tally, SETTINGS);
  return {
    name,
    value: tally.counted === 0 ? null : (100 * tally.correct) / tally.counted,
    unit: '%',
    ...(interval ? { interval: { lower: 100 * interval.lower, upper: 100 * interval.upper } } : {}),
  };
}

/**
 * A task group of a run page: a task in one language, and for Counting one context setting
 * (Table 3 counts the medical-MIC setting; the others are Figure 6's).
 */
export function medodysseyGroupOf(row: { task: string; params: Record<string, unknown> }): string {
  const language = typeof row.params.language === 'string' ? `-${row.params.language}` : '';
  if (row.task === 'counting' && !isMainCountingSetting(row.params))
    return `counting${language} (${countingSetting(row.params)})`;
  return `${row.task}${language}`;
}

/** The report's figures of one group, computed by the same functions as Tables A2/A3, 3, 2 and A4. */
export function medodysseyFigures(rows: readonly ScoreRow[], run: RunRecord): GroupFigure[] {
  const first = rows[0];
  if (!first) return [];
  const language = String(first.params.language ?? '');
  const window = (run.model.contextWindow as number | null | undefined) ?? null;
  const figures: GroupFigure[] = [];
  for (const metric of ['esm', 'ssm'] as const) {
    const name = METRIC_NAMES[metric] ?? metric;
    if (first.task === 'niah') {
      // niahTable leaves the levels beyond the window out itself.
      const table = niahTable({ results: rows, language, metric, contextWindow: window });
      if (table) figures.push(accuracy(`${name}: accuracy`, table.all));
    } else if (first.task === 'counting' && isMainCountingSetting(first.params)) {
      const table = countingTable({ results: rows, language, metric });
      if (table) figures.push(accuracy(`${name}: accuracy`, table.all));
    } else if (first.task === 'counting' && metric === 'esm') {
      // Figure 6: the other context settings, under ESM.
      const entry = countingBySetting(rows)[countingSetting(first.params)];
      if (entry) figures.push(accuracy(`${name}: accuracy`, entry.all));
    } else if (MEDICAL.has(first.task)) {
      const score = medicalScore({ results: rows, task: first.task, language, metric, intervals: SETTINGS });
      if (score?.f1 !== undefined)
        figures.push(
          ...cellFigures(name, score),
          { name: `${name}: true positives`, value: score.tp ?? null, unit: 'count' },
          { name: `${name}: false positives`, value: score.fp ?? null, unit: 'count' },
          { name: `${name}: false negatives`, value: score.fn ?? null, unit: 'count' },
        );
      else if (score) figures.push(...cellFigures(name, score));
    }
  }
  // The effective length of the group's main ESM score (NIAH, Counting's main setting, the medical tasks).
  const settingOfItsOwn = first.task === 'counting' && !isMainCountingSetting(first.params);
  if (!settingOfItsOwn) figures.push(...effectiveLengthFigures(rows, window));
  return figures;
}

/** "niah-en" → "En.NIAH"; "counting-zh (generic MIC)" → "Zh.Counting (generic MIC)". */
export function medodysseyGroupTitle(group: string): string {
  const match = /^([a-z]+)-([a-z]+)(.*)$/.exec(group);
  if (!match) return group;
  const [, task, language, rest] = match;
  return `${datasetName(language!, task!)}${rest}`;
}

const METRIC_TITLES: Readonly<Record<string, string>> = {
  esm: 'ESM',
  ssm: 'SSM',
  tp: 'true positives per sample',
  fp: 'false positives per sample',
  fn: 'false negatives per sample',
};

export const medodysseyMetricName = (metric: string): string => METRIC_TITLES[metric] ?? metric;
