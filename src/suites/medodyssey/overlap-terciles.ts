import type { RunRecord, StoredResult } from '../../core/run-record.js';
import type { ScoredRow, ScoredTask } from '../../core/scored-task.js';
import { type IntervalSettings, quantileSorted } from '../../metrics/uncertainty/index.js';
import { countedInTables } from './aggregate.js';
import { isClosedBookRun } from './closed-book-report.js';
import { LANGUAGES } from './constants.js';
import { medodysseyScoring } from './medodyssey-scoring.js';
import { type ScoreWithInterval, scoreOf } from './scored-share.js';

export const TERCILES = ['low', 'middle', 'high'] as const;
export type Tercile = (typeof TERCILES)[number];

/** One needle's needle–question overlap (`needleOverlap`) and the tercile of its language it falls in. */
export interface NeedleOverlapEntry {
  language: string;
  needleId: number;
  needleType: string | null;
  overlap: number;
  tercile: Tercile;
}

/** NIAH accuracy (ESM) by overlap tercile: per run and language, each tercile's score over its needles' samples. */
export interface NeedleOverlapReport {
  needles: NeedleOverlapEntry[];
  /** Per language, the two cut points: type-7 quantiles at 1/3 and 2/3 of its needles' overlaps (a pair). */
  cuts: Record<string, number[]>;
  runs: Array<{
    runId: string;
    label: string;
    byLanguage: Record<string, Record<Tercile, ScoreWithInterval>>;
  }>;
}

/**
 * Tercile of each value: `low` up to the 1/3 quantile, `middle` up to the 2/3 quantile, `high`
 * above it (type-7 quantiles of the values; a value at a cut point goes to the lower tercile).
 */
export function tercilesOf(values: readonly number[]): { cuts: [number, number]; terciles: Tercile[] } {
  const sorted = [...values].sort((left, right) => left - right);
  const cuts: [number, number] = [quantileSorted(sorted, 1 / 3), quantileSorted(sorted, 2 / 3)];
  return {
    cuts,
    terciles: values.map((value) => (value <= cuts[0] ? 'low' : value <= cuts[1] ? 'middle' : 'high')),
  };
}

/** Each needle once, with the overlap its samples carry (`params.needleOverlap`), from every run's NIAH results. */
export function needlesOf(rowLists: ReadonlyArray<readonly ScoredRow[]>): NeedleOverlapEntry[] {
  const byKey = new Map<string, Omit<NeedleOverlapEntry, 'tercile'>>();
  for (const results of rowLists)
    for (const row of results) {
      const overlap = row.params.needleOverlap;
      if (row.task !== 'niah' || typeof overlap !== 'number') continue;
      byKey.set(`${row.params.language}/${row.params.needleId}`, {
        language: String(row.params.language),
        needleId: Number(row.params.needleId),
        needleType: typeof row.params.needleType === 'string' ? row.params.needleType : null,
        overlap,
      });
    }
  const needles: NeedleOverlapEntry[] = [];
  for (const language of LANGUAGES) {
    const own = [...byKey.values()]
      .filter((needle) => needle.language === language)
      .sort((left, right) => left.needleId - right.needleId);
    const { terciles } = tercilesOf(own.map((needle) => needle.overlap));
    for (const [index, needle] of own.entries()) needles.push({ ...needle, tercile: terciles[index]! });
  }
  return needles;
}

/** NIAH ESM (`En.NIAH`, `Zh.NIAH`) as the report scores it. */
const niahTask = (language: string): ScoredTask =>
  medodysseyScoring
    .tasks('esm', [])
    .find((entry) => entry.key === `${language === 'en' ? 'En' : 'Zh'}.NIAH`)!;

/**
 * One run's NIAH ESM accuracy in each overlap tercile of a language (the needles' terciles as
 * given), over the levels within the window; undefined when it has no NIAH result with an overlap.
 */
export function tercileScores(
  rows: readonly ScoredRow[],
  language: string,
  needles: readonly NeedleOverlapEntry[],
  window: number | null,
  settings?: IntervalSettings,
): Record<Tercile, ScoreWithInterval> | undefined {
  const task = niahTask(language);
  const tercileOf = new Map(
    needles.map((needle) => [`${needle.language}/${needle.needleId}`, needle.tercile]),
  );
  const counted = rows.filter(
    (row) =>
      task.includes(row) && countedInTables(row, window) && typeof row.params.needleOverlap === 'number',
  );
  if (counted.length === 0) return undefined;
  const inTercile = (tercile: Tercile) =>
    counted.filter((row) => tercileOf.get(`${language}/${row.params.needleId}`) === tercile);
  return {
    low: scoreOf(task, inTercile('low'), settings),
    middle: scoreOf(task, inTercile('middle'), settings),
    high: scoreOf(task, inTercile('high'), settings),
  };
}

/**
 * NIAH ESM accuracy by needle–question overlap tercile, per run (closed-book runs left out) and
 * language, over the levels within the model's window as Tables A2/A3 count, with the needle
 * bootstrap interval; undefined when no NIAH result carries an overlap.
 */
export function needleOverlapReport(
  runs: ReadonlyArray<{ run: RunRecord; results: readonly StoredResult[] }>,
  labels: ReadonlyMap<string, string>,
  settings?: IntervalSettings,
): NeedleOverlapReport | undefined {
  const needles = needlesOf(runs.map(({ results }) => results));
  if (needles.length === 0) return undefined;
  const cuts: NeedleOverlapReport['cuts'] = {};
  for (const language of LANGUAGES) {
    const values = needles.filter((needle) => needle.language === language).map((needle) => needle.overlap);
    if (values.length > 0) cuts[language] = tercilesOf(values).cuts;
  }
  return {
    needles,
    cuts,
    runs: runs
      .filter(({ run }) => !isClosedBookRun(run))
      .flatMap(({ run, results }) => {
        const window = (run.model.contextWindow as number | null | undefined) ?? null;
        const byLanguage: NeedleOverlapReport['runs'][number]['byLanguage'] = {};
        for (const language of Object.keys(cuts)) {
          const scores = tercileScores(results, language, needles, window, settings);
          if (scores) byLanguage[language] = scores;
        }
        return Object.keys(byLanguage).length === 0
          ? []
          : [{ runId: run.id, label: labels.get(run.id)!, byLanguage }];
      }),
  };
}
