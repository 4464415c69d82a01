import type { Redaction } from '../../core/run-record.js';
import type { RankIntervals } from '../../core/scored-task.js';
import type {
  GridAxis,
  GroupFigure,
  Leaderboard,
  SampleExplanation,
  SampleFilter,
  SuiteGrid,
} from '../../core/suite.js';
import type { Interval } from '../../metrics/uncertainty/index.js';
import type { PackedRows } from './packed-rows.js';

/**
 * What the viewer's pages receive: the payloads of the server's API, which the static site's
 * page computes alike from one file per run. Shared by the server and the page bundle.
 */

export type { GroupFigure, Interval, Leaderboard, SampleExplanation, SampleFilter };

/** A run as a page shows it (a static export leaves endpoint URLs out of model and parameters). */
export interface RunDescription {
  id: string;
  suite: string;
  label: string;
  imported: boolean;
  datasetId: string;
  createdAt: string;
  model: Record<string, unknown>;
  source: string;
  scoringMode: string;
  parameters: Record<string, unknown>;
}

/** One result as the lists show it: no prompt, gold or output. */
export interface ListRow {
  id: string;
  task: string;
  /** The page group (a task, or a task in one language / one setting). */
  group: string;
  params: Record<string, unknown>;
  status: string;
  scores: Record<string, number>;
  /** Whether the suite counts it in the run's figures (NIAH levels beyond the window do not). */
  counted: boolean;
  /** The unit its intervals cluster by (`Suite.unitOf`: a NIAH needle …); absent or null: the sample itself. */
  unit?: string | null;
  promptChars: number | null;
  promptTokens: number | null;
  cost: number | null;
  /** The raw output, where the list carries it (search reads it; the static site has it always). */
  rawOutput?: string | null;
}

/** One result in full, as the sample page explains it. */
export interface SampleRow extends ListRow {
  gold: unknown;
  rawOutput: string | null;
  parsed: unknown;
  inputTokens: number | null;
  outputTokens: number | null;
  latencyMs: number | null;
  error: string | null;
  /** The stored prompt's key (null: none stored). */
  promptHash: string | null;
  /** The suite's figures of this one sample where they say more than its scores (KG/Table: P/R/F1, tp/fp/fn). */
  figures: GroupFigure[];
  /** What the suite's scorer compared: normalised forms, the alternative that matched. */
  explanation: SampleExplanation | null;
  /** A --redact run: hashes and lengths in place of the prompt, output, parsed answer and gold. */
  redaction: Redaction | null;
}

/** The paper's names of a group and its metrics, and the metric shown first. */
export interface GroupNames {
  title: string;
  metricNames: Record<string, string>;
  primary: string | undefined;
}

export interface Overview {
  suites: Array<{
    suite: string;
    title: string;
    runs: Array<{
      id: string;
      label: string;
      imported: boolean;
      datasetId: string;
      createdAt: string;
      /** A run made with --limit: what it kept; null otherwise. */
      limited: string | null;
    }>;
  }>;
}

/** A group's grid (`Suite.grid`): each axis with the values its results take. */
export interface Grid {
  metric: string;
  rows: GridAxis & { values: number[] };
  columns: GridAxis & { values: number[] };
  /** By `<row value>|<column value>`; a pair without counted results is absent ("—"). */
  cells: Record<string, Interval>;
}

/** The primary metric along the grid's columns, by column value (a line chart). */
export interface ColumnLine {
  axis: SuiteGrid['columns'];
  points: Record<string, Interval>;
}

export interface GroupSummary extends GroupNames {
  group: string;
  task: string;
  samples: number;
  /** Results left out of every figure (NIAH levels beyond the model's window). */
  excluded: number;
  statuses: Record<string, number>;
  metrics: Record<string, Interval>;
  /** Metrics shown as percentages; the others (KG tp/fp/fn) are counts. */
  fractional: string[];
  grid: Grid | undefined;
  /** The primary metric along the grid's columns, when they take more than one value. */
  byColumn: ColumnLine | undefined;
  curve: Array<Interval & { cutoff: number }> | undefined;
  /** The report's own figures of the group (the paper's tables). */
  figures: GroupFigure[];
}

export interface RunSummary {
  run: RunDescription;
  samples: number;
  statuses: Record<string, number>;
  usage: { inputTokens: number | null; outputTokens: number | null; cost: number | null };
  /** A run made with --limit: what it kept ("limited to the first 3 of 294 samples (--limit 3)"); null otherwise. */
  limited: string | null;
  /** The suite's sample filters (the static site's lists read them here). */
  sampleFilters: SampleFilter[];
  groups: GroupSummary[];
}

/** The list's filters as URLs carry them: the generic ones, and the suite's params by name (`level`). */
export interface SampleFilters {
  status?: string;
  /** Text the id, a parameter or the raw output contains (any case). */
  q?: string;
  /** "1": the search text may be in the prompt too. */
  prompts?: string;
  /** A suite's filter (`Suite.sampleFilters`): the value its param must have. */
  [param: string]: string | undefined;
}

/** Which samples' prompts contain the search text, and how many distinct prompts were searched. */
export interface PromptSearch {
  /** Sample ids whose prompt contains the text. */
  matches: ReadonlySet<string>;
  searched: number;
  total: number;
}

export interface SampleList {
  run: RunDescription;
  group: string;
  title: string;
  primary: string | undefined;
  total: number;
  matched: number;
  offset: number;
  /** The suite's filters (`Suite.sampleFilters`), in menu order. */
  filters: SampleFilter[];
  /** Each filter's values over the group: `status`, and the suite's params by name. */
  options: { status: string[]; [param: string]: string[] };
  /** The filters it applied (those of the request the suite declares, and the generic ones). */
  within: SampleFilters;
  rows: ListRow[];
  /** When prompts were searched: how many distinct prompts of the group were (a budget may stop it). */
  promptSearch?: { searched: number; total: number };
}

export interface SamplePayload extends SampleRow {
  run: RunDescription;
  /** Texts to mark in the prompt: the needle, the gold answers (`highlightsOf`). */
  highlights: string[];
  title: string;
  metricNames: Record<string, string>;
  /** The samples before and after this one in its group's list under the same filters. */
  neighbours: { previous: string | null; next: string | null };
  /** The list's filters the neighbours were found under (those the suite applies; `appliedFilters`). */
  within: SampleFilters;
  /** The prompt when the payload carries it (the server's). */
  prompt: string | null;
  /**
   * inline: in `prompt`; apart: in its own file of the static site, loaded when unfolded; none:
   * no prompt stored; left-out: beyond the static site's prompt budget.
   */
  promptStatus: 'inline' | 'apart' | 'none' | 'left-out';
}

export interface MetricComparison {
  metric: string;
  test: string;
  meanA: number;
  meanB: number;
  difference: number;
  /** B − A's paired-bootstrap interval (`comparePairs`, as `medbench compare`). */
  lower: number;
  upper: number;
  onlyA?: number;
  onlyB?: number;
  p: number;
  /** Units resampled (needles, or the samples). */
  units: number;
  /** The smallest difference detected 80% of the time at the 5% level (∞: fewer than two units). */
  minimumDetectable: number;
  /** Counts (KG tp/fp/fn), shown as counts rather than percentages. */
  counts: boolean;
}

export interface Disagreement {
  id: string;
  params: Record<string, unknown>;
  a: Record<string, number>;
  b: Record<string, number>;
  outputA: string | null;
  outputB: string | null;
}

export interface Comparison {
  a: RunDescription;
  b: RunDescription;
  group: string;
  title: string;
  metricNames: Record<string, string>;
  paired: number;
  metrics: MetricComparison[];
  /** Each run's report figures of the group (KG/Table: micro P/R/F1 and counts). */
  figures: { a: GroupFigure[]; b: GroupFigure[] };
  /** Samples the runs score differently, with both outputs (the first 500). */
  disagreements: Disagreement[];
}

/** The static site's file of one run: its page and every result, prompts apart. */
export interface RunFile {
  summary: RunSummary;
  /** Every result, packed (`packRows`): keys once, values per row. */
  rows: PackedRows;
  /** Prompt keys written beside the run (shared between runs); others were left out of the export. */
  prompts: string[];
}

/** The static site's first file: the overview and every suite's leaderboard. */
export interface SiteFile {
  overview: Overview;
  leaderboards: Record<string, Leaderboard>;
  /** Per suite and scored variant: the leaderboard's rank intervals (`ViewData.ranks`). */
  ranks?: Record<string, Record<string, RankIntervals>>;
}
