import type { RunRecord, ScoreRow, StoredResult } from '../core/run-record.js';
import type { Leaderboard, Suite } from '../core/suite.js';
import type { Store } from '../store/store.js';
import { compareMetric } from './compare-metric.js';
import { summariseGroup } from './group-summary.js';

/** Page payloads for the viewer and the static site: plain JSON, computed from the store. */

export type { Leaderboard, LeaderboardColumn } from '../core/suite.js';

/**
 * Page payloads over the store, memoised until the store changes: SQLite's data_version moves
 * whenever another connection (a run in progress) commits, and then every cache is dropped.
 */
export class ViewData {
  private readonly cache = new Map<string, ScoreRow[]>();
  private readonly aggregateCache = new Map<string, ScoreRow[]>();
  private readonly leaderboards = new Map<string, Leaderboard>();
  private seenVersion = -1;

  constructor(
    private readonly store: Store,
    private readonly suites: readonly Suite[],
    /** For a static export: no endpoint URLs in what the pages receive (run models, error texts). */
    private readonly options: { hideEndpoints?: boolean } = {},
  ) {}

  /** What a page shows of a run: its model without endpoint URLs when exporting. */
  private describe(run: RunRecord) {
    const described = describeRun(run);
    if (!this.options.hideEndpoints) return described;
    const { endpoints: _endpoints, ...model } = run.model;
    return {
      ...described,
      model: withoutUrls(model) as Record<string, unknown>,
      parameters: withoutUrls(run.parameters) as Record<string, unknown>,
    };
  }

  /** Drops every memo when the store has changed since the last look. */
  private fresh(): void {
    const version = this.store.dataVersion();
    if (version === this.seenVersion) return;
    this.seenVersion = version;
    this.cache.clear();
    this.aggregateCache.clear();
    this.leaderboards.clear();
  }

  runs(): RunRecord[] {
    return this.suites.flatMap((suite) => this.store.listRuns({ suite: suite.name }));
  }

  /** The page group of a result of a run of that suite (a task, or a task in one language). */
  groupOf(suite: string, row: { task: string; params: ScoreRow['params'] }): string {
    return this.suites.find((entry) => entry.name === suite)?.groupOf(row) ?? row.task;
  }

  private neighbours(
    run: RunRecord,
    group: string,
    sampleId: string,
    filters: Omit<SamplePage, 'offset' | 'limit'>,
  ): { previous: string | null; next: string | null } {
    const page = { ...filters, offset: 0, limit: Number.MAX_SAFE_INTEGER };
    const ids = this.sampleList(run.id, group, page)?.rows.map((row) => row.id) ?? [];
    const index = ids.indexOf(sampleId);
    if (index < 0) return { previous: null, next: null };
    return { previous: ids[index - 1] ?? null, next: ids[index + 1] ?? null };
  }

  /** The paper's names of a group and of its metrics, for headings and tables. */
  names(suite: string, group: string, rows: readonly ScoreRow[] = []) {
    const plugin = this.suites.find((entry) => entry.name === suite);
    const metrics = [...new Set(rows.flatMap((row) => Object.keys(row.scores)))];
    return {
      title: plugin?.groupTitle?.(group) ?? group,
      metricNames: Object.fromEntries(
        metrics.map((metric) => [metric, plugin?.metricName?.(metric) ?? metric]),
      ),
    };
  }

  /** Whether a result counts in the run's figures, by its suite's rule. */
  private counts(run: RunRecord, row: ScoreRow): boolean {
    return this.suites.find((entry) => entry.name === run.suite)?.counts?.(row, run) ?? true;
  }

  /** The metric a page shows first for a task of that suite. */
  private primaryMetric(suite: string, task: string | undefined): string | undefined {
    if (task === undefined) return undefined;
    return this.suites.find((entry) => entry.name === suite)?.describeTask(task).primaryMetric;
  }

  scoreRows(runId: string): ScoreRow[] {
    this.fresh();
    let rows = this.cache.get(runId);
    if (!rows) {
      rows = this.store.scoreRows(runId);
      this.cache.set(runId, rows);
    }
    return rows;
  }

  /** Leaderboards need only task, params, status and scores: a lighter read. */
  private aggregateRows(runId: string): ScoreRow[] {
    const full = this.cache.get(runId);
    if (full) return full;
    let rows = this.aggregateCache.get(runId);
    if (!rows) {
      rows = this.store.aggregateRows(runId);
      this.aggregateCache.set(runId, rows);
    }
    return rows;
  }

  private withRows(suite: string) {
    return this.store
      .listRuns({ suite })
      .map((run) => ({ run, results: this.aggregateRows(run.id) as unknown as StoredResult[] }));
  }

  overview() {
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
        })),
      })),
    };
  }

  /** A suite's leaderboard; undefined for a suite medbench does not know (the page answers 404). */
  leaderboard(suite: string): Leaderboard | undefined {
    const plugin = this.suites.find((entry) => entry.name === suite);
    if (!plugin) return undefined;
    this.fresh();
    let board = this.leaderboards.get(suite);
    if (!board) {
      board = plugin.leaderboard(this.withRows(suite));
      this.leaderboards.set(suite, board);
    }
    return board;
  }

  /** Everything a run page shows: per task group, metric estimates, grids, curves. */
  runSummary(runId: string) {
    const run = this.store.getRun(runId);
    if (!run) return undefined;
    const rows = this.scoreRows(runId);
    const groups = new Map<string, ScoreRow[]>();
    for (const row of rows) {
      const group = this.groupOf(run.suite, row);
      groups.get(group)?.push(row) ?? groups.set(group, [row]);
    }
    const sum = (pick: (row: ScoreRow) => number | null) =>
      rows.some((row) => pick(row) !== null)
        ? rows.reduce((total, row) => total + (pick(row) ?? 0), 0)
        : null;
    const statuses: Record<string, number> = {};
    for (const row of rows) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
    return {
      run: this.describe(run),
      samples: rows.length,
      /** Every sample's status, counted (errors and too_long samples stand out on the page). */
      statuses,
      /** Token and cost totals; null where nothing was recorded (imported outputs carry no usage). */
      usage: {
        inputTokens: sum((row) => row.inputTokens),
        outputTokens: sum((row) => row.outputTokens),
        cost: sum((row) => row.cost),
      },
      groups: [...groups].map(([group, members]) =>
        Object.assign(
          summariseGroup(
            run,
            group,
            members,
            members.filter((row) => this.counts(run, row)),
            this.primaryMetric(run.suite, members[0]!.task),
          ),
          // The report's own figures for the group (KG/Table: micro P/R/F1 and the counts behind them).
          {
            figures: this.suites.find((entry) => entry.name === run.suite)?.figures?.(members, run) ?? [],
            ...this.names(run.suite, group, members),
          },
        ),
      ),
    };
  }

  /**
   * The rows of one task group (no prompts, no outputs), for the sample list. With `page`, only
   * the rows matching its filters, from its offset, `limit` of them (what the page shows); without
   * it, every row (`complete`), which the static site filters in the page.
   */
  sampleList(runId: string, group: string, page?: SamplePage) {
    const run = this.store.getRun(runId);
    if (!run) return undefined;
    const rows = this.scoreRows(runId)
      .filter((row) => this.groupOf(run.suite, row) === group)
      .sort((left, right) => naturalOrder(left.sampleId, right.sampleId));
    if (rows.length === 0) return undefined; // no such group in this run
    const options = (pick: (row: ScoreRow) => unknown) =>
      [...new Set(rows.map(pick).filter((value) => value !== undefined && value !== null))].sort(
        (left, right) => String(left).localeCompare(String(right), 'en', { numeric: true }),
      );
    // Search covers ids, parameters and the raw outputs, case-insensitively (CJK as it is).
    const outputMatches = page?.q ? this.store.sampleIdsWithOutput(runId, page.q) : new Set<string>();
    const matching = page ? rows.filter((row) => matchesFilters(row, page, outputMatches)) : rows;
    const shown = page ? matching.slice(page.offset, page.offset + page.limit) : matching;
    return {
      run: this.describe(run),
      group,
      title: this.names(run.suite, group).title,
      primary: this.primaryMetric(run.suite, rows[0]?.task),
      complete: !page,
      total: rows.length,
      matched: matching.length,
      options: {
        status: options((row) => row.status),
        level: options((row) => row.params.level),
        depth: options((row) => row.params.depth),
      },
      rows: shown.map((row) => ({
        id: row.sampleId,
        params: row.params,
        status: row.status,
        scores: row.scores,
        promptChars: row.promptChars,
        promptTokens: row.promptTokens,
        cost: row.cost,
      })),
    };
  }

  /** One sample with its prompt, gold, raw output, parsed answer, metrics, tokens and cost. */
  sample(runId: string, sampleId: string, filters: Omit<SamplePage, 'offset' | 'limit'> = {}) {
    const run = this.store.getRun(runId);
    const result = run ? this.store.result(runId, sampleId) : undefined;
    if (!run || !result) return undefined;
    return {
      run: this.describe(run),
      /** The samples before and after this one in its group's list under the same filters. */
      neighbours: this.neighbours(run, this.groupOf(run.suite, result), sampleId, filters),
      group: this.groupOf(run.suite, result),
      title: this.names(run.suite, this.groupOf(run.suite, result)).title,
      id: result.sampleId,
      task: result.task,
      params: result.params,
      gold: result.gold,
      prompt: result.promptHash ? (this.store.getPrompt(result.promptHash) ?? null) : null,
      promptChars: result.promptChars,
      promptTokens: result.promptTokens,
      status: result.status,
      rawOutput: result.rawOutput,
      parsed: result.parsed,
      scores: result.scores,
      inputTokens: result.inputTokens,
      outputTokens: result.outputTokens,
      cost: result.cost,
      latencyMs: result.latencyMs,
      error: this.options.hideEndpoints && result.error ? withoutUrls(result.error) : result.error,
      highlights: highlightsOf(result),
    };
  }

  /** Two runs on the same samples of a task group: paired differences and significance per metric. */
  compare(runA: string, runB: string, group: string) {
    const left = this.store.getRun(runA);
    const right = this.store.getRun(runB);
    if (!left || !right) return undefined;
    const rowsB = new Map(
      this.scoreRows(runB)
        .filter((row) => this.groupOf(right.suite, row) === group)
        .map((row) => [row.sampleId, row]),
    );
    // Pairs both runs count (a level beyond either model's window is not compared).
    const rowsA = this.scoreRows(runA).filter((row) => this.groupOf(left.suite, row) === group);
    if (rowsA.length === 0 || rowsB.size === 0) return undefined; // a group one of them does not have
    const pairs = rowsA
      .filter((row) => rowsB.has(row.sampleId))
      .map((row) => ({ a: row, b: rowsB.get(row.sampleId)! }))
      .filter((pair) => this.counts(left, pair.a) && this.counts(right, pair.b));
    const metrics = [...new Set(pairs.flatMap((pair) => Object.keys(pair.a.scores)))].filter((metric) =>
      pairs.every((pair) => typeof pair.b.scores[metric] === 'number'),
    );
    return {
      a: this.describe(left),
      b: this.describe(right),
      group,
      ...this.names(left.suite, group, rowsA),
      paired: pairs.length,
      metrics: metrics.map((metric) => compareMetric(group, metric, pairs)),
      disagreements: pairs
        .filter((pair) => metrics.some((metric) => pair.a.scores[metric] !== pair.b.scores[metric]))
        .slice(0, 500)
        .map((pair) => ({ id: pair.a.sampleId, params: pair.a.params, a: pair.a.scores, b: pair.b.scores })),
    };
  }
}

export interface SamplePage {
  level?: string;
  depth?: string;
  status?: string;
  /** Text that the sample id or a parameter value must contain. */
  q?: string;
  offset: number;
  limit: number;
}

/** The sample list's filters; the page applies the same rules to a complete list. */
function matchesFilters(row: ScoreRow, filters: SamplePage, outputMatches: ReadonlySet<string>): boolean {
  const q = filters.q?.toLocaleLowerCase();
  return (
    (!filters.level || String(row.params.level) === filters.level) &&
    (!filters.depth || String(row.params.depth) === filters.depth) &&
    (!filters.status || row.status === filters.status) &&
    (!q ||
      row.sampleId.toLocaleLowerCase().includes(q) ||
      JSON.stringify(row.params).toLocaleLowerCase().includes(q) ||
      outputMatches.has(row.sampleId))
  );
}

/** Ids in natural order: "niah-en-4k" before "niah-en-16k", "s2" before "s10". */
const naturalOrder = (left: string, right: string) => left.localeCompare(right, 'en', { numeric: true });

/** Every http(s) URL in a value replaced by "<endpoint>" (strings, arrays and objects alike). */
function withoutUrls(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\bhttps?:\/\/[^\s"'<>)]+/gi, '<endpoint>');
  if (Array.isArray(value)) return value.map(withoutUrls);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutUrls(item)]));
  return value;
}

function describeRun(run: RunRecord) {
  return {
    id: run.id,
    suite: run.suite,
    label: run.label,
    imported: run.source === 'imported',
    datasetId: run.datasetId,
    createdAt: run.createdAt,
    model: run.model,
    source: run.source,
    scoringMode: run.scoringMode,
    parameters: run.parameters,
  };
}

/** Texts to highlight in the prompt: the needle, the gold answers, MedEureka targets. */
function highlightsOf(result: StoredResult): string[] {
  const texts = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 3) return;
    if (typeof value === 'string' && value.length >= 2 && value.length <= 2000) texts.add(value);
    else if (Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else if (value && typeof value === 'object')
      for (const item of Object.values(value)) visit(item, depth + 1);
  };
  visit(result.params.needle, 0);
  visit(result.gold, 0);
  return [...texts].slice(0, 50);
}
