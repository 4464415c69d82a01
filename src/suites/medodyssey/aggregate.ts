import type { SampleScores, SampleStatus } from '../../core/sample.js';
import type { IntervalSettings } from '../../metrics/uncertainty/index.js';
import { COUNTING_TYPES, OWN_SCORE_PREFIX } from './constants.js';
import {
  addToTally,
  type MedicalIntervals,
  medicalIntervals,
  medodysseyUnitOf,
  type Tally,
} from './tally-intervals.js';

export type { Tally } from './tally-intervals.js';

/** The minimum of a result that aggregation reads. */
export interface ResultLike {
  task: string;
  params: Record<string, unknown>;
  status: SampleStatus;
  scores: SampleScores;
}

export interface StatusCounts {
  ok: number;
  bad_format: number;
  too_long: number;
  error: number;
}

export interface NiahTable {
  language: string;
  metric: string;
  levels: number[];
  depths: number[];
  /** cells[depth][level]; null where the level exceeds the model's window ("—"). */
  cells: Record<string, Record<string, Tally | null>>;
  byLevel: Record<string, Tally | null>;
  byDepth: Record<string, Tally>;
  all: Tally;
  excludedLevels: number[];
  statuses: StatusCounts;
}

export interface CountingTable {
  language: string;
  metric: string;
  byType: Record<string, Tally>;
  byLevel: Record<string, Tally>;
  all: Tally;
  statuses: StatusCounts;
}

const emptyStatuses = (): StatusCounts => ({ ok: 0, bad_format: 0, too_long: 0, error: 0 });
/** Counts a row's score in tallies, with the unit its interval clusters by. */
const add = (row: ResultLike, score: number, ...tallies: Tally[]) => {
  for (const tally of tallies) addToTally(tally, score, medodysseyUnitOf(row));
};
const sortedNumbers = (values: Iterable<unknown>) =>
  [...new Set(values)].map(Number).sort((left, right) => left - right);

/** Whether a result counts in the tables: a NIAH level above the model's context window does not. */
export function countedInTables(
  result: Pick<ResultLike, 'task' | 'params'>,
  contextWindow: number | null | undefined,
): boolean {
  return !(result.task === 'niah' && contextWindow != null && Number(result.params.level) > contextWindow);
}

/**
 * The NIAH length × depth table of one run, language and metric, as Tables A2/A3 count:
 * a level above the model's context window is shown as "—" and left out of every total;
 * within the window, `too_long` samples are wrong and counted.
 */
export function niahTable(options: {
  results: readonly ResultLike[];
  language: string;
  metric: string;
  contextWindow: number | null | undefined;
}): NiahTable | undefined {
  const rows = options.results.filter(
    (result) => result.task === 'niah' && result.params.language === options.language,
  );
  if (rows.length === 0) return undefined;
  const levels = sortedNumbers(rows.map((row) => row.params.level));
  const depths = sortedNumbers(rows.map((row) => row.params.depth));
  const excluded = new Set(
    levels.filter((level) => options.contextWindow != null && level > options.contextWindow),
  );
  const cells: NiahTable['cells'] = {};
  const byLevel: NiahTable['byLevel'] = {};
  const byDepth: NiahTable['byDepth'] = {};
  const all: Tally = { correct: 0, counted: 0 };
  const statuses = emptyStatuses();
  for (const depth of depths) {
    cells[depth] = {};
    byDepth[depth] = { correct: 0, counted: 0 };
    for (const level of levels)
      cells[depth]![level] = excluded.has(level) ? null : { correct: 0, counted: 0 };
  }
  for (const level of levels) byLevel[level] = excluded.has(level) ? null : { correct: 0, counted: 0 };
  for (const row of rows) {
    const level = Number(row.params.level);
    const depth = Number(row.params.depth);
    statuses[row.status]++;
    if (excluded.has(level)) continue;
    add(row, row.scores[options.metric] ?? 0, cells[depth]![level]!, byLevel[level]!, byDepth[depth]!, all);
  }
  return {
    language: options.language,
    metric: options.metric,
    levels,
    depths,
    cells,
    byLevel,
    byDepth,
    all,
    excludedLevels: [...excluded],
    statuses,
  };
}

/** Counting samples of the main setting (medical haystack, identical context): Table 3. */
export function isMainCountingSetting(params: Record<string, unknown>): boolean {
  return params.haystack !== 'generic' && params.mic !== 'per-model';
}

/**
 * Counting correct per type (Table 3, the medical-MIC setting; the other settings are
 * Figure 6's): every sample counts, `too_long` ones as wrong.
 */
export function countingTable(options: {
  results: readonly ResultLike[];
  language: string;
  metric: string;
}): CountingTable | undefined {
  const rows = options.results.filter(
    (result) =>
      result.task === 'counting' &&
      result.params.language === options.language &&
      isMainCountingSetting(result.params),
  );
  if (rows.length === 0) return undefined;
  const byType: Record<string, Tally> = {};
  for (const type of COUNTING_TYPES) byType[type] = { correct: 0, counted: 0 };
  const byLevel: Record<string, Tally> = {};
  const all: Tally = { correct: 0, counted: 0 };
  const statuses = emptyStatuses();
  for (const row of rows) {
    const type = String(row.params.countingType);
    const level = String(row.params.level);
    const score = row.scores[options.metric] ?? 0;
    statuses[row.status]++;
    byType[type] ??= { correct: 0, counted: 0 };
    byLevel[level] ??= { correct: 0, counted: 0 };
    add(row, score, byType[type]!, byLevel[level]!, all);
  }
  return { language: options.language, metric: options.metric, byType, byLevel, all, statuses };
}

export const MEDICAL_DATASETS = [
  { task: 'kg', language: 'en', name: 'En.KG' },
  { task: 'kg', language: 'zh', name: 'Zh.KG' },
  { task: 'term', language: 'en', name: 'En.Term' },
  { task: 'term', language: 'zh', name: 'Zh.Term' },
  { task: 'case', language: 'zh', name: 'Zh.Case' },
  { task: 'table', language: 'zh', name: 'Zh.Table' },
] as const;

/** Figure 2's ten datasets, in the order leaderboards show them. */
export const TEN_DATASETS: readonly string[] = [
  'En.NIAH',
  'Zh.NIAH',
  'En.Counting',
  'Zh.Counting',
  ...MEDICAL_DATASETS.map((dataset) => dataset.name),
];

export interface MedicalScore {
  task: string;
  language: string;
  metric: string;
  /** Micro precision/recall/F1 (KG and Table under ESM), ×100, and the sums behind them. */
  precision?: number;
  recall?: number;
  f1?: number;
  tp?: number;
  fp?: number;
  fn?: number;
  /** Accuracy (Term, Case, and every task under SSM), ×100, and correct of counted behind it. */
  accuracy?: number;
  correct?: number;
  counted: number;
  statuses: StatusCounts;
  /**
   * The same cell under medbench's own rules, present only for compat-scored results where
   * the two rules give a different number (spec: "where the two rules differ, shows both").
   */
  own?: Omit<MedicalScore, 'own' | 'statuses' | 'task' | 'language' | 'metric'>;
  /** 95% intervals of the figures, ×100 (in a report): micro P/R/F1 by the bootstrap over samples, accuracy by Wilson. */
  intervals?: MedicalIntervals;
}

const ratio = (numerator: number, denominator: number) => (denominator === 0 ? 0 : numerator / denominator);

/** A score of a row: the stored (compat or standard) value, or under `own`, medbench's own rule's value. */
function scoreOf(row: ResultLike, name: string, own: boolean): number {
  if (own) {
    const value = row.scores[`${OWN_SCORE_PREFIX}${name}`];
    if (value !== undefined) return value;
  }
  return row.scores[name] ?? 0;
}

function medicalCell(rows: readonly ResultLike[], prf: boolean, metric: string, own: boolean) {
  const sum = (name: string) => rows.reduce((total, row) => total + scoreOf(row, name, own), 0);
  if (prf) {
    const [tp, fp, fn] = [sum('tp'), sum('fp'), sum('fn')];
    const precision = ratio(tp, tp + fp);
    const recall = ratio(tp, tp + fn);
    const f1 = ratio(2 * precision * recall, precision + recall);
    return {
      precision: 100 * precision,
      recall: 100 * recall,
      f1: 100 * f1,
      tp,
      fp,
      fn,
      counted: rows.length,
    };
  }
  const correct = sum(metric);
  return { accuracy: (100 * correct) / rows.length, correct, counted: rows.length };
}

/**
 * Table 2 (ESM) and Table A4 (SSM) cells: KG and Table under ESM are micro P/R/F1 over the
 * whole dataset (0/0 reads 0); everything else is accuracy. too_long samples count as wrong
 * (and their gold items as false negatives).
 */
export function medicalScore(options: {
  results: readonly ResultLike[];
  task: string;
  language: string;
  metric: 'esm' | 'ssm';
  /** Give the cell its intervals (`MedicalScore.intervals`). */
  intervals?: IntervalSettings;
}): MedicalScore | undefined {
  const rows = options.results.filter(
    (result) => result.task === options.task && result.params.language === options.language,
  );
  if (rows.length === 0) return undefined;
  const statuses = emptyStatuses();
  for (const row of rows) statuses[row.status]++;
  const prf = options.metric === 'esm' && (options.task === 'kg' || options.task === 'table');
  const cell = medicalCell(rows, prf, options.metric, false);
  const score: MedicalScore = {
    task: options.task,
    language: options.language,
    metric: options.metric,
    ...cell,
    statuses,
  };
  if (rows.some((row) => Object.keys(row.scores).some((key) => key.startsWith(OWN_SCORE_PREFIX)))) {
    const own = medicalCell(rows, prf, options.metric, true);
    if (JSON.stringify(own) !== JSON.stringify(cell)) score.own = own;
  }
  if (options.intervals) {
    const counts = (own: boolean) => (row: ResultLike) => ({
      tp: scoreOf(row, 'tp', own),
      fp: scoreOf(row, 'fp', own),
      fn: scoreOf(row, 'fn', own),
      score: scoreOf(row, options.metric, own),
    });
    score.intervals = medicalIntervals(rows.map(counts(false)), prf, options.intervals);
    if (score.own) score.own.intervals = medicalIntervals(rows.map(counts(true)), prf, options.intervals);
  }
  return score;
}

/**
 * Figure 5 (ESM: F1 for KG and Table, accuracy otherwise) or Figure A4 (SSM: accuracy) —
 * a medical dataset's score per level.
 */
export function medicalScoreByLevel(options: {
  results: readonly ResultLike[];
  task: string;
  language: string;
  metric?: 'esm' | 'ssm';
}): Record<string, number> | undefined {
  const rows = options.results.filter(
    (result) => result.task === options.task && result.params.language === options.language,
  );
  if (rows.length === 0) return undefined;
  const levels = sortedNumbers(rows.map((row) => row.params.level));
  return Object.fromEntries(
    levels.map((level) => {
      const score = medicalScore({
        results: rows.filter((row) => Number(row.params.level) === level),
        task: options.task,
        language: options.language,
        metric: options.metric ?? 'esm',
      })!;
      return [String(level), score.f1 ?? score.accuracy ?? 0];
    }),
  );
}

/** The Figure 6 setting of a counting sample: which haystack, and identical or per-model context. */
export function countingSetting(params: Record<string, unknown>): string {
  const haystack = params.haystack === 'generic' ? 'generic' : 'medical';
  return params.mic === 'per-model' ? `${haystack} per-model maximum` : `${haystack} MIC`;
}

/** Counting ESM correct/counted per context setting (Figure 6), in all and per type. */
export function countingBySetting(
  results: readonly ResultLike[],
): Record<string, { all: Tally; byType: Record<string, Tally> }> {
  const settings: Record<string, { all: Tally; byType: Record<string, Tally> }> = {};
  for (const result of results) {
    if (result.task !== 'counting') continue;
    const setting = countingSetting(result.params);
    const entry = settings[setting] ?? {
      all: { correct: 0, counted: 0 },
      byType: Object.fromEntries(COUNTING_TYPES.map((type) => [type, { correct: 0, counted: 0 }])),
    };
    settings[setting] = entry;
    const type = String(result.params.countingType);
    entry.byType[type] ??= { correct: 0, counted: 0 };
    add(result, result.scores.esm ?? 0, entry.all, entry.byType[type]!);
  }
  return settings;
}

export interface NiahErrorTable {
  language: string;
  metric: string;
  /** Samples within the model's window (as Tables A2/A3 count them). */
  counted: number;
  errors: number;
  /** Wrong samples per needle type (`general`, `med`) and per depth, each of how many. */
  byNeedleType: Record<string, Tally & { errors: number }>;
  byDepth: Record<string, Tally & { errors: number }>;
  byNeedleTypeAndDepth: Record<string, Record<string, Tally & { errors: number }>>;
  /** Of the wrong ones: no single well-formed JSON answer, or never sent (too long). */
  badFormat: number;
  tooLong: number;
}

/**
 * NIAH error analysis (the paper's Section 4.3): wrong answers per needle type and per depth,
 * over the levels within the model's context window, with how many were format errors.
 */
export function niahErrors(options: {
  results: readonly ResultLike[];
  language: string;
  metric: string;
  contextWindow: number | null | undefined;
}): NiahErrorTable | undefined {
  const rows = options.results.filter(
    (result) =>
      result.task === 'niah' &&
      result.params.language === options.language &&
      countedInTables(result, options.contextWindow),
  );
  if (rows.length === 0) return undefined;
  const table: NiahErrorTable = {
    language: options.language,
    metric: options.metric,
    counted: 0,
    errors: 0,
    byNeedleType: {},
    byDepth: {},
    byNeedleTypeAndDepth: {},
    badFormat: 0,
    tooLong: 0,
  };
  const bump = (bucket: Record<string, Tally & { errors: number }>, key: string, wrong: boolean) => {
    const entry = bucket[key] ?? { correct: 0, counted: 0, errors: 0 };
    bucket[key] = entry;
    entry.counted++;
    if (wrong) entry.errors++;
    else entry.correct++;
  };
  for (const row of rows) {
    const wrong = (row.scores[options.metric] ?? 0) === 0;
    const type = String(row.params.needleType);
    const depth = String(row.params.depth);
    table.counted++;
    bump(table.byNeedleType, type, wrong);
    bump(table.byDepth, depth, wrong);
    table.byNeedleTypeAndDepth[type] ??= {};
    bump(table.byNeedleTypeAndDepth[type]!, depth, wrong);
    if (!wrong) continue;
    table.errors++;
    if (row.status === 'bad_format') table.badFormat++;
    if (row.status === 'too_long') table.tooLong++;
  }
  return table;
}
