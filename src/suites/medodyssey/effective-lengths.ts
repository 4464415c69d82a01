import {
  type EffectiveLengthEstimate,
  effectiveLengthEstimates,
  NOLIMA_FRACTION,
  RULER_THRESHOLD,
} from '../../metrics/effective-length.js';
import { groupByUnit, type IntervalSettings, totalsOf } from '../../metrics/uncertainty/index.js';
import { countedInTables, isMainCountingSetting, MEDICAL_DATASETS, type ResultLike } from './aggregate.js';
import { LANGUAGES } from './constants.js';
import { medodysseyUnitOf } from './tally-intervals.js';

/** The two rules' settings: RULER's fixed threshold (×100 scores) and NoLiMa's share of the shortest level's score. */
export interface EffectiveLengthSettings {
  threshold: number;
  fraction: number;
}

export const DEFAULT_EFFECTIVE_LENGTH: EffectiveLengthSettings = {
  threshold: RULER_THRESHOLD,
  fraction: NOLIMA_FRACTION,
};

/** A level's prompt length in tokens under the model's own tokenizer, over the samples that record it. */
export interface LevelTokens {
  mean: number;
  min: number;
  max: number;
  /** Samples whose prompt's token count is known (imported outputs may lack it). */
  known: number;
}

/** One level of a dataset: its main ESM score ×100 (null: not counted, e.g. beyond the window) and real length. */
export interface EffectiveLevel {
  level: number;
  score: number | null;
  tokens: LevelTokens | null;
}

/** A dataset's effective length under both rules, with the levels behind it. */
export interface EffectiveLengthRow {
  dataset: string;
  task: string;
  language: string;
  levels: EffectiveLevel[];
  /** RULER's rule: every level up to it scores at least the fixed threshold. */
  fixed: EffectiveLengthEstimate;
  /** NoLiMa's rule: every level up to it keeps at least the fraction of the shortest level's score. */
  relative: EffectiveLengthEstimate;
}

type Row = ResultLike & { promptTokens?: number | null; sampleId?: string };

/** Per level: [Σ score, counted, Σ tp, Σ fp, Σ fn]. */
const DIMS = 5;

/** The main ESM score ×100 of one level's totals: micro F1 (KG, Table) or accuracy; null when nothing counted. */
function levelScore(prf: boolean) {
  return (totals: ArrayLike<number>, offset: number): number | null => {
    const counted = totals[offset + 1]!;
    if (!counted) return null;
    if (!prf) return (100 * totals[offset]!) / counted;
    const tp = totals[offset + 2]!;
    const denominator = 2 * tp + totals[offset + 3]! + totals[offset + 4]!;
    return denominator === 0 ? 0 : (100 * 2 * tp) / denominator;
  };
}

function tokensOf(rows: readonly Row[]): LevelTokens | null {
  const counts = rows
    .map((row) => row.promptTokens)
    .filter((count): count is number => typeof count === 'number');
  if (counts.length === 0) return null;
  return {
    mean: counts.reduce((sum, count) => sum + count, 0) / counts.length,
    min: Math.min(...counts),
    max: Math.max(...counts),
    known: counts.length,
  };
}

/**
 * A dataset's effective lengths: the rows' levels ascending (a NIAH level beyond the model's
 * window scores null, so it never passes), each unit (a NIAH needle, else a sample) one vector of
 * per-level sums, and both rules' estimates with their bootstrap intervals over those units.
 */
export function effectiveLengthRow(options: {
  dataset: string;
  task: string;
  language: string;
  rows: readonly Row[];
  prf: boolean;
  contextWindow: number | null;
  settings: EffectiveLengthSettings;
  intervals?: IntervalSettings;
}): EffectiveLengthRow | undefined {
  const { rows } = options;
  if (rows.length === 0) return undefined;
  const levels = [...new Set(rows.map((row) => Number(row.params.level)))].sort((a, b) => a - b);
  const counted = (row: Row) => countedInTables(row, options.contextWindow);
  const unitSums = groupByUnit(rows, (row, index) => medodysseyUnitOf(row) ?? `sample ${index}`).map(
    (unitRows) => {
      const sums = new Float64Array(levels.length * DIMS);
      for (const row of unitRows) {
        if (!counted(row)) continue;
        const offset = levels.indexOf(Number(row.params.level)) * DIMS;
        sums[offset]! += row.scores.esm ?? 0;
        sums[offset + 1]! += 1;
        sums[offset + 2]! += row.scores.tp ?? 0;
        sums[offset + 3]! += row.scores.fp ?? 0;
        sums[offset + 4]! += row.scores.fn ?? 0;
      }
      return sums;
    },
  );
  const scoreOf = levelScore(options.prf);
  const [fixed, relative] = effectiveLengthEstimates({
    levels,
    unitSums,
    dims: DIMS,
    scoreOf,
    rules: [
      { kind: 'fixed', threshold: options.settings.threshold },
      { kind: 'relative', fraction: options.settings.fraction },
    ],
    ...(options.intervals ? { intervals: options.intervals } : {}),
  });
  const totals = totalsOf(unitSums);
  return {
    dataset: options.dataset,
    task: options.task,
    language: options.language,
    levels: levels.map((level, index) => ({
      level,
      score: scoreOf(totals, index * DIMS),
      tokens: tokensOf(rows.filter((row) => Number(row.params.level) === level)),
    })),
    fixed: fixed!,
    relative: relative!,
  };
}

const LANGUAGE_PREFIX: Record<string, string> = { en: 'En', zh: 'Zh' };

/**
 * Every dataset's effective lengths of one run: NIAH and Counting (the main setting) per
 * language, and the six medical datasets, each by its main ESM score per level.
 */
export function effectiveLengths(options: {
  rowsOf: (task: string) => readonly Row[];
  contextWindow: number | null;
  settings?: EffectiveLengthSettings;
  intervals?: IntervalSettings;
}): EffectiveLengthRow[] {
  const settings = options.settings ?? DEFAULT_EFFECTIVE_LENGTH;
  const common = { contextWindow: options.contextWindow, settings, intervals: options.intervals };
  const datasets: Array<{
    dataset: string;
    task: string;
    language: string;
    rows: readonly Row[];
    prf: boolean;
  }> = [];
  for (const task of ['niah', 'counting'] as const) {
    for (const language of LANGUAGES) {
      const rows = options
        .rowsOf(task)
        .filter(
          (row) => row.params.language === language && (task === 'niah' || isMainCountingSetting(row.params)),
        );
      const name = task === 'niah' ? 'NIAH' : 'Counting';
      datasets.push({ dataset: `${LANGUAGE_PREFIX[language]}.${name}`, task, language, rows, prf: false });
    }
  }
  for (const { task, language, name } of MEDICAL_DATASETS) {
    const rows = options.rowsOf(task).filter((row) => row.params.language === language);
    datasets.push({ dataset: name, task, language, rows, prf: task === 'kg' || task === 'table' });
  }
  return datasets.flatMap((dataset) => effectiveLengthRow({ ...dataset, ...common }) ?? []);
}
