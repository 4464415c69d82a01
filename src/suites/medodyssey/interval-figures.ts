import type { RunRecord, ScoreRow } from '../../core/run-record.js';
import type { GroupFigure } from '../../core/suite.js';
import {
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  type IntervalSettings,
  type ReportInterval,
} from '../../metrics/uncertainty/index.js';
import { type MedicalScore, medicalScore, medicalScoreByLevel, niahErrors } from './aggregate.js';
import { byLevelIntervals, niahErrorIntervals } from './level-and-error-intervals.js';
import { MEDODYSSEY_METRICS, METRIC_NAMES } from './medodyssey-labels.js';

// The run page's intervals, as `report`'s defaults.
const SETTINGS: IntervalSettings = { resamples: DEFAULT_RESAMPLES, seed: DEFAULT_SEED };
const MEDICAL = new Set(['kg', 'term', 'table', 'case']);

function percent(
  name: string,
  value: number | null | undefined,
  interval?: ReportInterval | null,
): GroupFigure {
  return {
    name,
    value: value ?? null,
    unit: '%',
    ...(interval && Number.isFinite(interval.lower) && Number.isFinite(interval.upper)
      ? { interval: { lower: interval.lower, upper: interval.upper } }
      : {}),
  };
}

/** A medical cell's score figures (micro P/R/F1, or accuracy) with the report's intervals. */
export function cellFigures(name: string, cell: NonNullable<MedicalScore['own']>): GroupFigure[] {
  if (cell.f1 !== undefined)
    return [
      percent(`${name}: micro precision`, cell.precision, cell.intervals?.precision),
      percent(`${name}: micro recall`, cell.recall, cell.intervals?.recall),
      percent(`${name}: micro F1`, cell.f1, cell.intervals?.f1),
    ];
  return [percent(`${name}: accuracy`, cell.accuracy, cell.intervals?.accuracy)];
}

/** A medical group: the cell under medbench's own rules where they differ (Tables 2/A4), and Figure 5's / A4's levels. */
function medicalFigures(rows: readonly ScoreRow[], task: string, language: string): GroupFigure[] {
  const figures: GroupFigure[] = [];
  const rowsOf = (wanted: string) => (wanted === task ? rows : []);
  for (const metric of MEDODYSSEY_METRICS) {
    const name = METRIC_NAMES[metric] ?? metric;
    const score = medicalScore({ results: rows, task, language, metric, intervals: SETTINGS });
    if (score?.own) figures.push(...cellFigures(`${name}, medbench's own rules`, score.own));
    const levels = medicalScoreByLevel({ results: rows, task, language, metric }) ?? {};
    const intervals = byLevelIntervals(rowsOf, metric, SETTINGS)[`${task}-${language}`] ?? {};
    const statistic = score?.f1 !== undefined ? 'micro F1' : 'accuracy';
    for (const [level, value] of Object.entries(levels))
      figures.push(percent(`${name}: ${statistic}, level ${level}`, value, intervals[level]));
  }
  return figures;
}

/** A NIAH group: the error analysis's share of wrong answers, all, per needle type and per depth. */
function niahErrorFigures(rows: readonly ScoreRow[], language: string, window: number | null): GroupFigure[] {
  const figures: GroupFigure[] = [];
  const intervals = niahErrorIntervals(rows, window, SETTINGS)[language];
  for (const metric of MEDODYSSEY_METRICS) {
    const table = niahErrors({ results: rows, language, metric, contextWindow: window });
    const ci = intervals?.[metric];
    if (!table || !ci) continue;
    const name = `${METRIC_NAMES[metric] ?? metric}: wrong answers`;
    const share = (errors: number, counted: number) => (counted === 0 ? null : (100 * errors) / counted);
    figures.push(percent(name, share(table.errors, table.counted), ci.errors));
    for (const [type, tally] of Object.entries(table.byNeedleType))
      figures.push(
        percent(`${name}, ${type} needles`, share(tally.errors, tally.counted), ci.byNeedleType[type]),
      );
    for (const [depth, tally] of Object.entries(table.byDepth))
      figures.push(
        percent(`${name}, depth ${depth}%`, share(tally.errors, tally.counted), ci.byDepth[depth]),
      );
  }
  return figures;
}

/**
 * The report's figures a run page shows beside Tables A2/A3, 3, 2 and A4, each with its 95%
 * interval computed by the report's own functions: Figure 5's and A4's medical score per level,
 * a medical cell under medbench's own rules, and the NIAH error analysis.
 */
export function intervalFigures(rows: readonly ScoreRow[], run: RunRecord): GroupFigure[] {
  const first = rows[0];
  if (!first) return [];
  const language = String(first.params.language ?? '');
  if (MEDICAL.has(first.task)) return medicalFigures(rows, first.task, language);
  const window = (run.model.contextWindow as number | null | undefined) ?? null;
  if (first.task === 'niah') return niahErrorFigures(rows, language, window);
  return [];
}
