import { epochSettingsOf } from '../core/epochs.js';
import type { RunRecord, ScoreRow, StoredResult } from '../core/run-record.js';
import { limitText } from '../core/sample-limit.js';
import { type RankIntervals, rankedVariants } from '../core/scored-task.js';
import type { Leaderboard, Suite } from '../core/suite.js';
import { reduceEpochRows } from '../metrics/epoch-results.js';
import { rankIntervals } from '../metrics/rank-intervals.js';
import type { Store } from '../store/store.js';
import { suiteLeaderboard } from '../store/suite-leaderboard.js';
import { summariseGroup } from './group-summary.js';
import { compareGroups } from './shared/compare-groups.js';
import { highlightsOf } from './shared/highlights.js';
import { packRows } from './shared/packed-rows.js';
import { neighboursOf, sampleListOf, searchPrompts } from './shared/sample-list.js';
import type {
  Comparison,
  GroupNames,
  ListRow,
  Overview,
  PromptSearch,
  RunDescription,
  RunFile,
  RunSummary,
  SampleFilter,
  SampleFilters,
  SampleList,
  SamplePayload,
  SampleRow,
} from './shared/view-types.js';
import { describeRun, listRowOf, sampleRowOf } from './view-rows.js';

export type { Leaderboard, LeaderboardColumn } from '../core/suite.js';

/** Score rows and the lists' rows beside them. */
interface Rows {
  score: readonly ScoreRow[];
  list: ListRow[];
}

/**
 * A run's rows, read once: the store's score rows (one per epoch of a run of `--epochs K`, each
 * a sample the list opens), and `reduced`, one per sample with its epochs reduced as the report
 * reduces them (`reduceEpochRows`): what a run page's figures and the ranks count.
 */
interface RunRows extends Rows {
  reduced: Rows;
}

/**
 * The viewer's page payloads over the store, computed by the rules in `shared/` that the page
 * bundle applies alike to a static export. Memoised until the store changes: SQLite's
 * data_version moves whenever another connection (a run in progress) commits.
 */
export class ViewData {
  private readonly cache = new Map<string, RunRows>();
  private readonly leaderboards = new Map<string, Leaderboard>();
  private readonly rankings = new Map<string, RankIntervals | undefined>();
  private readonly promptSearches = new Map<string, PromptSearch>();
  private seenVersion = -1;

  constructor(
    private readonly store: Store,
    private readonly suites: readonly Suite[],
    /** For a static export: no endpoint URLs in what the pages receive (run models, error texts). */
    private readonly options: { hideEndpoints?: boolean } = {},
  ) {}

  private suite(name: string): Suite | undefined {
    return this.suites.find((entry) => entry.name === name);
  }

  /** The params the run's suite lets its sample lists filter by. */
  private sampleFilters(run: RunRecord): SampleFilter[] {
    return (this.suite(run.suite)?.sampleFilters ?? []).map(({ param, label }) => ({ param, label }));
  }

  private describe(run: RunRecord): RunDescription {
    return describeRun(run, this.options.hideEndpoints === true);
  }

  /** Drops every memo when the store has changed since the last look. */
  private fresh(): void {
    const version = this.store.dataVersion();
    if (version === this.seenVersion) return;
    this.seenVersion = version;
    this.cache.clear();
    this.leaderboards.clear();
    this.rankings.clear();
    this.promptSearches.clear();
  }

  runs(): RunRecord[] {
    return this.suites.flatMap((suite) => this.store.listRuns({ suite: suite.name }));
  }

  /** A run's rows, each with its page group and whether its suite counts it. */
  private rows(run: RunRecord): RunRows {
    this.fresh();
    let rows = this.cache.get(run.id);
    if (!rows) {
      const suite = this.suite(run.suite);
      const listOf = (score: readonly ScoreRow[]) =>
        score.map((row) =>
          listRowOf(
            row,
            suite?.groupOf(row) ?? row.task,
            suite?.counts?.(row, run) ?? true,
            suite?.unitOf?.(row),
          ),
        );
      const score = this.store.scoreRows(run.id);
      const settings = epochSettingsOf(run);
      const every = { score, list: listOf(score) };
      const reduced = settings ? reduceEpochRows(score, settings) : score;
      rows = { ...every, reduced: settings ? { score: reduced, list: listOf(reduced) } : every };
      this.cache.set(run.id, rows);
    }
    return rows;
  }

  /** One group's list rows, with raw outputs when asked (search and comparisons read them). */
  private groupRows(run: RunRecord, group: string, withOutputs: boolean): ListRow[] {
    const rows = this.rows(run).list.filter((row) => row.group === group);
    if (!withOutputs) return rows;
    const outputs = this.store.resultColumn(run.id, 'raw_output');
    return rows.map((row) => ({ ...row, rawOutput: outputs.get(row.id) ?? null }));
  }

  /** The paper's names of a group and of its metrics, and the metric shown first. */
  names(suite: string, group: string, rows: readonly ListRow[]): GroupNames {
    const plugin = this.suite(suite);
    const metrics = [...new Set(rows.flatMap((row) => Object.keys(row.scores)))];
    const task = rows[0]?.task;
    return {
      title: plugin?.groupTitle?.(group) ?? group,
      metricNames: Object.fromEntries(
        metrics.map((metric) => [metric, plugin?.metricName?.(metric) ?? metric]),
      ),
      primary: task === undefined || !plugin ? undefined : primaryMetricOf(plugin, task),
    };
  }

  overview(): Overview {
    return {
      suites: this.suites.map((suite) => ({
        suite: suite.name,
        title: suite.title,
        runs: this.store.listRuns({ suite: suite.name }).map((run) => ({
          id: run.id,
          label: run.label,
          imported: run.source === 'imported',
          // What the compare menu needs: runs of the same dataset, told apart by id, date and source.
          datasetId: run.datasetId,
          createdAt: run.createdAt,
          limited: limitText(run.parameters),
          sampleFilters: this.sampleFilters(run),
        })),
      })),
    };
  }

  /** A suite's leaderboard; undefined for a suite medbench does not know (the page answers 404). */
  leaderboard(suite: string): Leaderboard | undefined {
    const plugin = this.suite(suite);
    if (!plugin) return undefined;
    this.fresh();
    let board = this.leaderboards.get(suite);
    if (!board) {
      board = suiteLeaderboard(this.store, plugin);
      this.leaderboards.set(suite, board);
    }
    return board;
  }

  /**
   * A leaderboard variant's bootstrap rank intervals and neighbour tests (`rankIntervals`, over
   * the suite's scored tasks); undefined for a suite or variant its scoring does not declare.
   */
  ranks(suite: string, variant: string): RankIntervals | undefined {
    const plugin = this.suite(suite);
    if (!plugin?.scoring || !rankedVariants(plugin.scoring).includes(variant)) return undefined;
    this.fresh();
    const key = `${suite}\u0000${variant}`;
    if (!this.rankings.has(key)) {
      const runs = this.store.listRuns({ suite }).map((run) => ({
        runId: run.id,
        label: run.label,
        rows: this.rows(run).reduced.score,
        counted: (row: ScoreRow) => plugin.counts?.(row, run) ?? true,
      }));
      this.rankings.set(key, runs.length > 0 ? rankIntervals(plugin.scoring, variant, runs) : undefined);
    }
    return this.rankings.get(key);
  }

  /** Everything a run page shows: per task group, metric estimates, grids, curves, the report's figures. */
  runSummary(runId: string): RunSummary | undefined {
    const run = this.store.getRun(runId);
    if (!run) return undefined;
    const { score, list, reduced } = this.rows(run);
    // The figures count each sample once, its epochs reduced as the report does.
    const groups = new Map<string, number[]>();
    reduced.list.forEach((row, index) => {
      groups.get(row.group)?.push(index) ?? groups.set(row.group, [index]);
    });
    const sum = (pick: (row: ScoreRow) => number | null) =>
      score.some((row) => pick(row) !== null)
        ? score.reduce((total, row) => total + (pick(row) ?? 0), 0)
        : null;
    const statuses: Record<string, number> = {};
    for (const row of list) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
    return {
      run: this.describe(run),
      samples: list.length,
      statuses,
      /** Token and cost totals; null where nothing was recorded (imported outputs carry no usage). */
      usage: {
        inputTokens: sum((row) => row.inputTokens),
        outputTokens: sum((row) => row.outputTokens),
        cost: sum((row) => row.cost),
      },
      limited: limitText(run.parameters),
      sampleFilters: this.sampleFilters(run),
      groups: [...groups].map(([group, indexes]) => {
        const members = indexes.map((index) => reduced.list[index]!);
        return {
          ...summariseGroup(
            run,
            group,
            members,
            members.filter((row) => row.counted),
            this.names(run.suite, group, members).primary,
            this.suite(run.suite)?.grid,
          ),
          ...this.names(run.suite, group, members),
          // The report's own figures for the group (KG/Table: micro P/R/F1 and the counts behind them).
          figures: this.groupFigures(run, group),
        };
      }),
    };
  }

  /** One page of a group's list under the filters (a missing run or group: undefined). */
  sampleList(
    runId: string,
    group: string,
    filters: SampleFilters = {},
    page = { offset: 0, limit: 100 },
  ): SampleList | undefined {
    const run = this.store.getRun(runId);
    if (!run) return undefined;
    const rows = this.groupRows(run, group, Boolean(filters.q));
    if (rows.length === 0) return undefined;
    const { ids: _ids, ...list } = sampleListOf(rows, filters, page, {
      declared: this.sampleFilters(run),
      prompts: this.promptSearch(run, rows, filters),
    });
    const names = this.names(run.suite, group, rows);
    return { run: this.describe(run), group, title: names.title, primary: names.primary, ...list };
  }

  /** With a search text and "prompts": which of the rows' prompts contain it (memoised per search). */
  private promptSearch(
    run: RunRecord,
    rows: readonly ListRow[],
    filters: SampleFilters,
  ): PromptSearch | undefined {
    if (!filters.q || filters.prompts !== '1') return undefined;
    const key = `${run.id}\u0000${rows[0]?.group}\u0000${filters.q}`;
    let found = this.promptSearches.get(key);
    if (!found) {
      const hashes = this.store.resultColumn(run.id, 'prompt_hash');
      found = searchPrompts(
        rows.map((row) => ({ id: row.id, promptHash: hashes.get(row.id) ?? null })),
        filters.q,
        (hash) => this.store.getPrompt(hash),
      );
      this.promptSearches.set(key, found);
    }
    return found;
  }

  /** One result in full: what the sample page shows, minus the prompt. */
  private sampleRow(run: RunRecord, sampleId: string): SampleRow | undefined {
    const result = this.store.result(run.id, sampleId);
    const rows = this.rows(run);
    const index = rows.list.findIndex((row) => row.id === sampleId);
    return result && index >= 0 ? this.fullRow(run, result, index) : undefined;
  }

  private fullRow(run: RunRecord, result: StoredResult, index: number): SampleRow {
    const rows = this.rows(run);
    const suite = this.suite(run.suite);
    return sampleRowOf(
      result,
      rows.list[index]!,
      {
        figures: suite?.figures?.([rows.score[index]!], run) ?? [],
        // A redacted result has no output or gold to explain.
        explanation: result.redaction ? null : (suite?.explain?.(result, run) ?? null),
      },
      this.options.hideEndpoints === true,
    );
  }

  /** One sample with its prompt, and its neighbours in the group's list under the same filters. */
  sample(runId: string, sampleId: string, filters: SampleFilters = {}): SamplePayload | undefined {
    const run = this.store.getRun(runId);
    const row = run ? this.sampleRow(run, sampleId) : undefined;
    if (!run || !row) return undefined;
    const rows = this.groupRows(run, row.group, Boolean(filters.q));
    const { ids, within } = sampleListOf(
      rows,
      filters,
      { offset: 0, limit: 0 },
      { declared: this.sampleFilters(run), prompts: this.promptSearch(run, rows, filters) },
    );
    const names = this.names(run.suite, row.group, rows);
    return {
      ...row,
      run: this.describe(run),
      title: names.title,
      metricNames: names.metricNames,
      neighbours: neighboursOf(ids, sampleId),
      within,
      highlights: highlightsOf(row),
      ...promptOf(row.promptHash ? this.store.getPrompt(row.promptHash) : undefined),
    };
  }

  /** Two runs on the same samples of a task group (shared rule: `compareGroups`). */
  compare(runA: string, runB: string, group: string): Comparison | undefined {
    const left = this.store.getRun(runA);
    const right = this.store.getRun(runB);
    if (!left || !right) return undefined;
    const side = (run: RunRecord) => ({
      run: this.describe(run),
      rows: this.groupRows(run, group, true),
      figures: this.groupFigures(run, group),
    });
    const a = side(left);
    return compareGroups(group, this.names(left.suite, group, a.rows), a, side(right));
  }

  /** The report's figures of one group of a run (what its run page shows for the group). */
  private groupFigures(run: RunRecord, group: string) {
    const { score, list } = this.rows(run).reduced;
    const members = score.filter((_, index) => list[index]!.group === group);
    const related = {
      runs: this.store.listRuns({ suite: run.suite }),
      rowsOf: (other: RunRecord) => this.rows(other).reduced.score,
    };
    return members.length > 0 ? (this.suite(run.suite)?.figures?.(members, run, related) ?? []) : [];
  }

  /** A run's static file: its page and every result in full; prompts are written apart. */
  runFile(runId: string): RunFile | undefined {
    const run = this.store.getRun(runId);
    const summary = this.runSummary(runId);
    if (!run || !summary) return undefined;
    const results = new Map(this.store.results(run.id).map((result) => [result.sampleId, result]));
    const rows = this.rows(run).list.map((row, index) => this.fullRow(run, results.get(row.id)!, index));
    return { summary, rows: packRows(rows), prompts: [] };
  }
}

function promptOf(prompt: string | undefined): Pick<SamplePayload, 'prompt' | 'promptStatus'> {
  return prompt === undefined ? { prompt: null, promptStatus: 'none' } : { prompt, promptStatus: 'inline' };
}

/** The metric shown first for a task: its `Task`'s, else the suite's for that task, else the suite's. */
function primaryMetricOf(suite: Suite, task: string): string {
  return suite.tasks?.[task]?.primaryMetric ?? suite.primaryMetrics?.[task] ?? suite.primaryMetric;
}
