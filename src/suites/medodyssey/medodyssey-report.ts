import type { RunRecord, StoredResult } from '../../core/run-record.js';
import type { IntervalSettings, ReportInterval } from '../../metrics/uncertainty/index.js';
import { displayLabels } from '../../report/display-labels.js';
import { type RunSummary, runSummary } from '../../report/run-summary.js';
import { type MergedCountingIntervals, mergedCountingIntervals } from './ablation-intervals.js';
import {
  type CountingTable,
  countingBySetting,
  countingTable,
  MEDICAL_DATASETS,
  type MedicalScore,
  medicalScore,
  medicalScoreByLevel,
  type NiahErrorTable,
  type NiahTable,
  niahErrors,
  niahTable,
  type Tally,
} from './aggregate.js';
import { type ClosedBookComparison, closedBookComparisons } from './closed-book-report.js';
import { LANGUAGES } from './constants.js';
import {
  DEFAULT_EFFECTIVE_LENGTH,
  type EffectiveLengthRow,
  type EffectiveLengthSettings,
  effectiveLengths,
} from './effective-lengths.js';
import {
  type ByLevelIntervals,
  byLevelIntervals,
  type NiahErrorIntervals,
  niahErrorIntervals,
} from './level-and-error-intervals.js';
import { MEDODYSSEY_METRICS } from './medodyssey-labels.js';
import { type NeedleOverlapReport, needleOverlapReport } from './overlap-terciles.js';
import { withTallyIntervals } from './tally-intervals.js';

/** Which rules produced a number: the published scorer's (compat) or medbench's own. */
export type ScoringRules = 'compat' | 'own';

/** A released file that lacks outputs for part of the published grid. */
export interface MissingOutputs {
  file: string;
  task: string;
  language: string;
  setting: string | null;
  outputs: number;
  expected: number;
  /** Sample ids without an output (NIAH: a description of what is missing). */
  missing: string[];
}

/** One run of the report: what every suite says of a run (model id, provider, source, statuses, settings), then MedOdyssey's tables. */
export interface RunReport extends RunSummary {
  runId: string;
  /** The display label (the paper's name for published models). */
  label: string;
  /** The rules behind every number of this run; `own` beside a cell gives medbench's own rules where they differ. */
  scoring: ScoringRules;
  contextWindow: number | null;
  datasetId: string;
  createdAt: string;
  samples: number;
  /** Samples of the published grid that the release holds no output for (imported runs). */
  missingOutputs: MissingOutputs[];
  /** Sums over the samples; null where nothing is known (imported outputs carry no usage). */
  usage: { inputTokens: number | null; outputTokens: number | null; cost: number | null };
  niah: Record<string, Record<string, NiahTable>>;
  counting: Record<string, Record<string, CountingTable>>;
  /** "kg-en" … → metric → Table 2 (esm) / Table A4 (ssm) cell, with the counts behind it. */
  medical: Record<string, Record<string, MedicalScore>>;
  /** Figure 5: "kg-en" … → level → main ESM score (F1 or accuracy, ×100). */
  medicalByLevel: Record<string, Record<string, number>>;
  /** Figure A4: the same with SSM (accuracy, ×100). */
  medicalByLevelSsm: Record<string, Record<string, number>>;
  /** Figures 5 and A4's 95% intervals (×100), present when the report computes intervals. */
  medicalByLevelIntervals?: ByLevelIntervals;
  medicalByLevelSsmIntervals?: ByLevelIntervals;
  /**
   * Figure 2: each of the ten datasets' main ESM score ×100, or null when not run. NIAH and
   * Counting: accuracy (NIAH over the levels within the window); KG and Table: micro F1;
   * Term and Case: accuracy. The axes share one 0–100 scale; nothing is rescaled.
   */
  overview: Record<string, number | null>;
  /** The overview's 95% intervals (×100, as its scores), null where the score is; present when the report computes intervals. */
  overviewIntervals?: Record<string, ReportInterval | null>;
  /**
   * Figure 6: counting ESM per context setting ("medical MIC", "generic MIC", "medical
   * per-model maximum"), in all and per type.
   */
  countingSettings: Record<string, { all: Tally; byType: Record<string, Tally> }>;
  /** NIAH errors per needle type and depth (Section 4.3's error analysis), per language and metric. */
  niahErrors: Record<string, Record<string, NiahErrorTable>>;
  /** Each dataset's effective length under RULER's and NoLiMa's rules, its levels' scores and real token lengths. */
  effectiveLengths: EffectiveLengthRow[];
  /** The error analysis's 95% intervals of the share wrong (×100, by needle), present when the report computes intervals. */
  niahErrorIntervals?: Record<string, Record<string, NiahErrorIntervals>>;
}

export interface MedOdysseyReport {
  suite: 'medodyssey';
  generatedAt: string;
  /** The effective-length rules' settings: RULER's fixed threshold and NoLiMa's fraction of the base score. */
  effectiveLength: EffectiveLengthSettings;
  runs: RunReport[];
  /** Closed-book runs (`run --closed-book`), each beside the model's run with context; absent: none. */
  closedBook?: ClosedBookComparison[];
  /** NIAH accuracy by needle–question overlap tercile; absent: no NIAH result carries an overlap. */
  needleOverlap?: NeedleOverlapReport;
  /** Figure 6's tallies of a model's runs merged (a setting two runs or more give), their intervals; absent: none. */
  countingAblationIntervals?: MergedCountingIntervals;
}

function sumKnown(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0);
}

/** The NIAH, Counting and medical tables of one run, under both metrics (Tables A2/A3, 3, 2/A4). */
export function medodysseyTables(
  results: readonly StoredResult[],
  contextWindow: number | null,
  intervals?: IntervalSettings,
): Pick<RunReport, 'niah' | 'counting' | 'medical'> & { rowsOf: (task: string) => StoredResult[] } {
  // Each aggregate reads one task's rows: split once rather than filtering every row per table.
  const byTask = new Map<string, StoredResult[]>();
  for (const result of results) byTask.get(result.task)?.push(result) ?? byTask.set(result.task, [result]);
  const rowsOf = (task: string) => byTask.get(task) ?? [];
  const niah: RunReport['niah'] = {};
  const counting: RunReport['counting'] = {};
  for (const language of LANGUAGES) {
    for (const metric of MEDODYSSEY_METRICS) {
      const niahResult = niahTable({ results: rowsOf('niah'), language, metric, contextWindow });
      if (niahResult) niah[language] = { ...niah[language], [metric]: niahResult };
      const countingResult = countingTable({ results: rowsOf('counting'), language, metric });
      if (countingResult) counting[language] = { ...counting[language], [metric]: countingResult };
    }
  }
  const medical: RunReport['medical'] = {};
  for (const { task, language } of MEDICAL_DATASETS) {
    for (const metric of MEDODYSSEY_METRICS) {
      const score = medicalScore({ results: rowsOf(task), task, language, metric, intervals });
      if (score) medical[`${task}-${language}`] = { ...medical[`${task}-${language}`], [metric]: score };
    }
  }
  if (intervals) withTallyIntervals({ niah, counting }, intervals);
  return { niah, counting, medical, rowsOf };
}

type TenTables = Pick<RunReport, 'niah' | 'counting' | 'medical'>;

/** Figure 2's ten datasets, each read from its NIAH or Counting tally or its medical cell; null when not run. */
function tenDatasets<Value>(
  tables: TenTables,
  metric: (typeof MEDODYSSEY_METRICS)[number],
  read: {
    tally: (tally: Tally | undefined) => Value | null;
    medical: (cell: MedicalScore) => Value | undefined;
  },
): Record<string, Value | null> {
  const values: Record<string, Value | null> = {
    'En.NIAH': read.tally(tables.niah.en?.[metric]?.all),
    'Zh.NIAH': read.tally(tables.niah.zh?.[metric]?.all),
    'En.Counting': read.tally(tables.counting.en?.[metric]?.all),
    'Zh.Counting': read.tally(tables.counting.zh?.[metric]?.all),
  };
  for (const { task, language, name } of MEDICAL_DATASETS) {
    const cell = tables.medical[`${task}-${language}`]?.[metric];
    values[name] = cell ? (read.medical(cell) ?? null) : null;
  }
  return values;
}

/**
 * Figure 2's ten datasets under one metric, ×100, null when not run: NIAH and Counting accuracy
 * (NIAH over the levels within the window), KG and Table micro F1, Term and Case accuracy.
 */
export function tenDatasetScores(
  tables: TenTables,
  metric: (typeof MEDODYSSEY_METRICS)[number],
): Record<string, number | null> {
  return tenDatasets(tables, metric, {
    tally: (tally) => (tally && tally.counted > 0 ? (100 * tally.correct) / tally.counted : null),
    medical: (cell) => cell.f1 ?? cell.accuracy,
  });
}

/** Figure 2's ten datasets' intervals under one metric, ×100 like `tenDatasetScores`, null when not run. */
export function tenDatasetIntervals(
  tables: TenTables,
  metric: (typeof MEDODYSSEY_METRICS)[number],
): Record<string, ReportInterval | null> {
  return tenDatasets(tables, metric, {
    tally: (tally) =>
      tally?.interval
        ? { ...tally.interval, lower: 100 * tally.interval.lower, upper: 100 * tally.interval.upper }
        : null,
    medical: (cell) => cell.intervals?.f1 ?? cell.intervals?.accuracy,
  });
}

/** The release files of an imported run that lack part of the grid (recorded by the import). */
function missingOutputsOf(run: RunRecord): MissingOutputs[] {
  const release = run.parameters.release as { files?: MissingOutputs[] } | undefined;
  // The report's fields only, whatever else a store's record holds.
  return (release?.files ?? [])
    .filter((file) => file.missing.length > 0)
    .map(({ file, task, language, setting, outputs, expected, missing }) => ({
      file,
      task,
      language,
      setting,
      outputs,
      expected,
      missing,
    }));
}

function runReport(
  run: RunRecord,
  results: readonly StoredResult[],
  label: string,
  options: { intervals?: IntervalSettings; effectiveLength: EffectiveLengthSettings },
): RunReport {
  const { intervals } = options;
  const contextWindow = (run.model.contextWindow as number | null | undefined) ?? null;
  const { niah, counting, medical, rowsOf } = medodysseyTables(results, contextWindow, intervals);
  const medicalByLevel: RunReport['medicalByLevel'] = {};
  const medicalByLevelSsm: RunReport['medicalByLevelSsm'] = {};
  for (const { task, language } of MEDICAL_DATASETS) {
    const byLevel = medicalScoreByLevel({ results: rowsOf(task), task, language });
    if (byLevel) medicalByLevel[`${task}-${language}`] = byLevel;
    const byLevelSsm = medicalScoreByLevel({ results: rowsOf(task), task, language, metric: 'ssm' });
    if (byLevelSsm) medicalByLevelSsm[`${task}-${language}`] = byLevelSsm;
  }
  const errors: RunReport['niahErrors'] = {};
  for (const language of LANGUAGES) {
    for (const metric of MEDODYSSEY_METRICS) {
      const table = niahErrors({ results: rowsOf('niah'), language, metric, contextWindow });
      if (table) errors[language] = { ...errors[language], [metric]: table };
    }
  }
  return {
    runId: run.id,
    label,
    ...runSummary(run, results),
    scoring: run.scoringMode === 'compat' ? 'compat' : 'own',
    contextWindow,
    datasetId: run.datasetId,
    createdAt: run.createdAt,
    samples: results.length,
    missingOutputs: missingOutputsOf(run),
    usage: {
      inputTokens: sumKnown(results.map((result) => result.inputTokens)),
      outputTokens: sumKnown(results.map((result) => result.outputTokens)),
      cost: sumKnown(results.map((result) => result.cost)),
    },
    niah,
    counting,
    medical,
    medicalByLevel,
    medicalByLevelSsm,
    overview: tenDatasetScores({ niah, counting, medical }, 'esm'),
    ...(intervals ? { overviewIntervals: tenDatasetIntervals({ niah, counting, medical }, 'esm') } : {}),
    countingSettings: intervals
      ? withTallyIntervals(countingBySetting(rowsOf('counting')), intervals)
      : countingBySetting(rowsOf('counting')),
    niahErrors: errors,
    effectiveLengths: effectiveLengths({
      rowsOf,
      contextWindow,
      settings: options.effectiveLength,
      ...(intervals ? { intervals } : {}),
    }),
    ...(intervals
      ? {
          medicalByLevelIntervals: byLevelIntervals(rowsOf, 'esm', intervals),
          medicalByLevelSsmIntervals: byLevelIntervals(rowsOf, 'ssm', intervals),
          niahErrorIntervals: niahErrorIntervals(rowsOf('niah'), contextWindow, intervals),
        }
      : {}),
  };
}

/** Aggregates stored runs into the report document (`medbench report --json`). */
export function buildMedOdysseyReport(
  runs: ReadonlyArray<{ run: RunRecord; results: readonly StoredResult[] }>,
  options: { intervals?: IntervalSettings; effectiveLength?: EffectiveLengthSettings } = {},
): MedOdysseyReport {
  const labels = displayLabels(runs);
  const closedBook = closedBookComparisons(runs, labels, options.intervals);
  const needleOverlap = needleOverlapReport(runs, labels, options.intervals);
  const merged = options.intervals && mergedCountingIntervals(runs, labels, options.intervals);
  const effectiveLength = options.effectiveLength ?? DEFAULT_EFFECTIVE_LENGTH;
  const settings = { ...(options.intervals ? { intervals: options.intervals } : {}), effectiveLength };
  return {
    suite: 'medodyssey',
    generatedAt: new Date().toISOString(),
    effectiveLength,
    runs: runs.map(({ run, results }) => runReport(run, results, labels.get(run.id)!, settings)),
    ...(closedBook.length > 0 ? { closedBook } : {}),
    ...(needleOverlap ? { needleOverlap } : {}),
    ...(merged && Object.keys(merged).length > 0 ? { countingAblationIntervals: merged } : {}),
  };
}
