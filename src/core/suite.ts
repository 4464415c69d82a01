import type { RunRecord, RunWithResults, ScoreRow, StoredResult } from './run-record.js';
import type { Sample, SampleExplanation, SampleParams } from './sample.js';
import type { SuiteScoring } from './scored-task.js';

export type { SampleExplanation } from './sample.js';

import type { Task } from './task.js';

/** A column of a suite's leaderboard: its key and heading. */
export interface LeaderboardColumn {
  key: string;
  label: string;
}

/** A suite's leaderboard: one row per run, one column set per metric variant. */
export interface Leaderboard {
  suite: string;
  /** Metric variants the page can switch between (ESM/SSM; MRR@n/HR@n; CLUE levels). */
  variants: Array<{ key: string; label: string; columns: LeaderboardColumn[] }>;
  rows: Array<{
    runId: string;
    label: string;
    imported: boolean;
    samples: number;
    values: Record<string, Record<string, number | null>>;
    /** The values' 95% intervals, where the suite gives them (variant → column → bounds, in the values' scale). */
    intervals?: Record<string, Record<string, { lower: number; upper: number } | null>>;
  }>;
}

/** A sample parameter the viewer's sample list offers as a menu of its values (`level=4000`). */
export interface SampleFilter {
  /** The key in the samples' `params`, and the filter's name in the viewer's URLs and API. */
  param: string;
  /** The menu's label. */
  label: string;
}

/** One axis of a suite's grid: a numeric sample parameter and how the run page names it. */
export interface GridAxis {
  /** The key in the samples' `params`; a cell links to the sample list filtered by it (a `sampleFilters` param). */
  param: string;
  /** Its name in the grid's caption (`depth`, `length`). */
  name: string;
  /** Written after each value in the grid's headers (`%`); absent: nothing. */
  unit?: string;
}

/**
 * The grid of a task group's primary metric a run page shows, one cell per pair of values
 * (MedOdyssey: needle depth × context length), and the metric along the columns as a line.
 */
export interface SuiteGrid {
  rows: GridAxis;
  /** `chartAxis`: the line chart's axis title (`context length (tokens)`). */
  columns: GridAxis & { chartAxis: string };
}

/** One figure of a task group as the suite's report gives it (a percentage, or a count). */
export interface GroupFigure {
  name: string;
  /** null: not computable (nothing counted). */
  value: number | null;
  unit: '%' | 'count';
  /** Its 95% interval, on the value's scale, where the suite gives one. */
  interval?: { lower: number; upper: number };
}

/** The store's other runs of a suite, for figures that set a run beside another (MedOdyssey's closed-book control). */
export interface RelatedRuns {
  runs: readonly RunRecord[];
  /** A run's score rows, each sample once (epochs reduced), as `figures` gets its own. */
  rowsOf(run: RunRecord): readonly ScoreRow[];
}

/** Options of `medbench report` a suite may use; each suite reads the ones it knows. */
export interface SuiteReportOptions {
  /** Metrics of the text tables, of the suite's `textMetrics` (`--metric`). */
  metrics?: readonly string[];
  /** The run every other run is compared with (CLUE, Figure 5). */
  base?: string;
  /**
   * Give every score its 95% interval, with these bootstrap settings (B and seed; Wilson needs
   * none); absent: no intervals (the viewer's figures, leaderboards, a run's closing report).
   */
  intervals?: { resamples: number; seed: number };
  /** The effective-length rules (MedOdyssey): RULER's fixed threshold (a score ×100) and NoLiMa's fraction; absent: 85.6 and 0.85. */
  effectiveLength?: { threshold: number; fraction: number };
}

/**
 * The schema of a suite's report document: in medbench's suites a strict zod object (its `shape`
 * is what `report --json` extends with the sections every suite has, and what
 * `schemas/report.schema.json` is generated from); `parse` returns the document it checked.
 */
export interface ReportSchema<Report> {
  readonly shape: Readonly<Record<string, unknown>>;
  parse(value: unknown): Report;
}

/** One table of a suite's report as the text report shows it: `report --csv` writes each to a file named after it. */
export interface ReportTable {
  /** Its name, unique in the report (`niah-en-esm`, `level-1`): the CSV file's name. */
  name: string;
  /** The heading the text report prints above it. */
  title: string;
  header: string[];
  /** The cells as the text report shows them (`12/20`, `45.0%`, `—`). */
  rows: string[][];
}

/** What a suite's build produced: samples, made as they are consumed, and what to tell about them. */
export interface SuiteBuild<Used = Record<string, unknown>> {
  /** The samples, produced lazily (a dataset file is written as they come); every input error is thrown before the first. */
  samples: Iterable<Sample>;
  /** Lines to show before the samples are written (inputs skipped …). */
  notices: readonly string[];
  /** Lines to show once every sample was produced (what fitting noticed …). */
  warnings(): string[];
  /** What the build used beyond its request (files read, pools drawn from), for the dataset header or the run. */
  record: Used;
}

/** One rubric criterion a person grades (met or not), with the points it is worth (negative: must not happen). */
export interface ReviewCriterion {
  id: string;
  text: string;
  points: number;
}

/** The rubric people grade a task's answers by: the judge's rubric of the task (docs/review.md). */
export interface ReviewRubric {
  task: string;
  /** Its version and the SHA-256 of its whole content: a grade records both. */
  version: string;
  sha256: string;
  /** What the task asks of an answer. */
  definition: string;
  criteria: readonly ReviewCriterion[];
  /** The file it was read from (a shipped one, or `--rubric FILE`). */
  file: string;
}

/** What a reviewer reads of one answer: the task as the model got it, the reference, the answer. */
export interface ReviewItem {
  input: string;
  reference: string;
  answer: string;
}

/**
 * Human review of a suite's free-text answers (CLUE's MeQSum, Problem Summary and MeDiSumQA:
 * docs/review.md): the viewer's blinded queue, `export grades`/`import grades` and
 * `judge-validate` read it. People grade the same rubrics a judge does, criterion by criterion.
 */
export interface SuiteReview {
  /** The tasks people grade, each with its rubric; `files` replace shipped rubrics (as `judge --rubric`). */
  rubrics(files?: readonly string[]): Readonly<Record<string, ReviewRubric>>;
  /** Whether a stored result can be graded, without reading its prompt: answered, of a reviewed task, its prompt and output stored. */
  reviewable(result: StoredResult): boolean;
  /** What a reviewer reads of one stored result of such a task (its prompt read); null when it is not `reviewable`. */
  itemOf(result: StoredResult, prompt: string | null): ReviewItem | null;
}

/**
 * One benchmark suite, as the generic commands, the report and the viewer see it. A suite's
 * own folder implements it; `SUITES` (`src/compose/suites.ts`) lists them.
 */
export interface Suite<Report = unknown> {
  /** The name runs are stored under and `--suite` takes. */
  readonly name: string;
  /** The paper's name. */
  readonly title: string;
  /**
   * Tasks of the dataset files this suite writes (`medbench run --dataset`); suites whose run
   * command builds and runs in one go, or that rank rather than generate, have none.
   */
  readonly tasks?: Readonly<Record<string, Task>>;
  /** Metrics the text report can be limited to (`--metric`); a suite without them takes no `--metric`. */
  readonly textMetrics?: readonly string[];
  /** The command that makes a first run, for the error when none is stored. */
  readonly firstRun: string;
  /** The group a result belongs to on the viewer's pages (a task, or a task in one language). */
  groupOf(row: { task: string; params: SampleParams }): string;
  /**
   * The metric shown first for one sample and in grids (a fraction in [0, 1]), for a task with no
   * `Task` in `tasks` (those name their own `primaryMetric`) and none in `primaryMetrics`.
   */
  readonly primaryMetric: string;
  /** The metric shown first per task, for tasks built at run time (CLUE's) rather than listed in `tasks`. */
  readonly primaryMetrics?: Readonly<Record<string, string>>;
  /** Sample parameters the viewer's sample list filters by, in menu order; absent: none (status and search only). */
  readonly sampleFilters?: readonly SampleFilter[];
  /**
   * The run page's grid of a task group over two of its sample params, drawn for a group whose
   * results have both (and a line along the columns when they take more than one value); absent: none.
   */
  readonly grid?: SuiteGrid;
  /**
   * The unit a score's samples cluster by in its 95% interval — the unit the paper averages over
   * (MedOdyssey NIAH: the needle, whose samples at other depths and lengths share its difficulty;
   * CLUE LongHealth: the patient); undefined (or absent): each sample is its own unit.
   */
  readonly unitOf?: (result: {
    task: string;
    params: Readonly<Record<string, unknown>>;
  }) => string | undefined;
  /**
   * Tasks whose text a data-use agreement keeps from being shared (CLUE's MIMIC-derived ones), by
   * what they are (`MedNLI (MIMIC-III)`): standard-log exports withhold their prompts, outputs and
   * gold. Absent: none.
   */
  readonly restrictedTasks?: Readonly<Record<string, string>>;
  /**
   * `run --closed-book`: a sample asked without its context (same question, instruction and answer
   * format), or undefined when its task has no closed-book form (left out of such a run). Absent:
   * the suite offers no closed-book runs.
   */
  readonly closedBook?: (sample: Sample) => Sample | undefined;
  /** The paper's name of a task group (`niah-en` → "En.NIAH"); absent: the group key itself. */
  groupTitle?(group: string): string;
  /**
   * The prompt templates its prompts are made from (name → text, placeholders in braces), hashed
   * in a run's manifest; absent: none named.
   */
  promptTemplates?(): Readonly<Record<string, string>>;
  /** The paper's name of a metric (`mrr@10` → "MRR@10"); absent: the key itself. */
  metricName?(metric: string): string;
  /**
   * Whether a result counts in the run's figures: MedOdyssey leaves NIAH levels beyond the model's
   * context window out of every total (the report shows "—"). Absent: every result counts.
   */
  counts?(row: { task: string; params: SampleParams }, run: RunRecord): boolean;
  /** The report's figures of one task group of a run (its rows, every status), for the run page. */
  figures?(rows: readonly ScoreRow[], run: RunRecord, related?: RelatedRuns): GroupFigure[];
  /** How one stored result was scored: normalised forms and the gold alternative that matched. */
  explain?(result: StoredResult, run: RunRecord): SampleExplanation | null;
  /** The suite's report of stored runs: one JSON document, the same one every form shows. */
  readonly reportSchema: ReportSchema<Report>;
  /** The suite's report of stored runs (checked by `reportSchema`): one JSON document, the same one every form shows. */
  report(runs: readonly RunWithResults[], options: SuiteReportOptions): Report;
  renderText(report: Report, options: SuiteReportOptions): string;
  /** The tables `renderText` shows, by name, built by the same functions (`report --csv`). */
  tables(report: Report, options: SuiteReportOptions): ReportTable[];
  renderHtml(report: Report): string;
  /** Number of runs a report holds (0: nothing matched). */
  runCount(report: Report): number;
  leaderboard(runs: readonly RunWithResults[]): Leaderboard;
  /** Human review of its free-text answers (rubrics, what a reviewer reads); absent: none. */
  readonly review?: SuiteReview;
  /** The report's rows as statistics of per-result sums, for `medbench compare` and rank intervals; absent: neither. */
  readonly scoring?: SuiteScoring;
}
