import { buildClueReport } from '../report/clue-report.js';
import { buildMedEurekaReport } from '../report/medeureka-report.js';
import { displayLabels, medodysseyTables, tenDatasetScores } from '../report/medodyssey-report.js';
import type { RunRecord, ScoreRow, Store, StoredResult } from '../store/store.js';
import { TEN_DATASETS } from '../suites/medodyssey/aggregate.js';
import { bootstrapMean, type Estimate, mcnemarExact, pairedBootstrap, seedOf } from './statistics.js';

/** Page payloads for the viewer and the static site: plain JSON, computed from the store. */

export interface LeaderboardColumn {
  key: string;
  label: string;
}

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
  }>;
}

const SUITES = ['medodyssey', 'medeureka', 'clue'] as const;

/**
 * Page payloads over the store, memoised until the store changes: SQLite's data_version moves
 * whenever another connection (a run in progress) commits, and then every cache is dropped.
 */
export class ViewData {
  private readonly cache = new Map<string, ScoreRow[]>();
  private readonly aggregateCache = new Map<string, ScoreRow[]>();
  private readonly leaderboards = new Map<string, Leaderboard>();
  private seenVersion = -1;

  constructor(private readonly store: Store) {}

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
    return SUITES.flatMap((suite) => this.store.listRuns({ suite }));
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
      suites: SUITES.map((suite) => ({
        suite,
        runs: this.store
          .listRuns({ suite })
          .map((run) => ({ id: run.id, label: run.label, imported: run.source === 'imported' })),
      })),
    };
  }

  leaderboard(suite: string): Leaderboard {
    this.fresh();
    let board = this.leaderboards.get(suite);
    if (!board) {
      board = this.computeLeaderboard(suite);
      this.leaderboards.set(suite, board);
    }
    return board;
  }

  private computeLeaderboard(suite: string): Leaderboard {
    const runs = this.withRows(suite);
    if (suite === 'medodyssey') return medodysseyLeaderboard(runs);
    if (suite === 'medeureka') return medeurekaLeaderboard(runs);
    if (suite === 'clue') return clueLeaderboard(runs);
    return { suite, variants: [], rows: [] };
  }

  /** Everything a run page shows: per task group, metric estimates, grids, curves. */
  runSummary(runId: string) {
    const run = this.store.getRun(runId);
    if (!run) return undefined;
    const rows = this.scoreRows(runId);
    const groups = new Map<string, ScoreRow[]>();
    for (const row of rows) {
      const group = groupOf(row);
      groups.get(group)?.push(row) ?? groups.set(group, [row]);
    }
    return {
      run: describeRun(run),
      samples: rows.length,
      groups: [...groups].map(([group, members]) => summariseGroup(run, group, members)),
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
    const rows = this.scoreRows(runId).filter((row) => groupOf(row) === group);
    const options = (pick: (row: ScoreRow) => unknown) =>
      [...new Set(rows.map(pick).filter((value) => value !== undefined && value !== null))].sort(
        (left, right) => String(left).localeCompare(String(right), 'en', { numeric: true }),
      );
    const matching = page ? rows.filter((row) => matchesFilters(row, page)) : rows;
    const shown = page ? matching.slice(page.offset, page.offset + page.limit) : matching;
    return {
      run: describeRun(run),
      group,
      primary: primaryMetric(rows),
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
  sample(runId: string, sampleId: string) {
    const run = this.store.getRun(runId);
    const result = run ? this.store.result(runId, sampleId) : undefined;
    if (!run || !result) return undefined;
    return {
      run: describeRun(run),
      group: groupOf(result),
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
      error: result.error,
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
        .filter((row) => groupOf(row) === group)
        .map((row) => [row.sampleId, row]),
    );
    const pairs = this.scoreRows(runA)
      .filter((row) => groupOf(row) === group && rowsB.has(row.sampleId))
      .map((row) => ({ a: row, b: rowsB.get(row.sampleId)! }));
    const metrics = [...new Set(pairs.flatMap((pair) => Object.keys(pair.a.scores)))].filter((metric) =>
      pairs.every((pair) => typeof pair.b.scores[metric] === 'number'),
    );
    return {
      a: describeRun(left),
      b: describeRun(right),
      group,
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
function matchesFilters(row: ScoreRow, filters: SamplePage): boolean {
  return (
    (!filters.level || String(row.params.level) === filters.level) &&
    (!filters.depth || String(row.params.depth) === filters.depth) &&
    (!filters.status || row.status === filters.status) &&
    (!filters.q || row.sampleId.includes(filters.q) || JSON.stringify(row.params).includes(filters.q))
  );
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
  };
}

/** Task groups: a task, split by language where samples carry one (MedEureka keys are tasks already). */
export function groupOf(row: { task: string; params: Record<string, unknown> }): string {
  const language = row.params.language;
  return typeof language === 'string' && !row.task.includes('_') ? `${row.task}-${language}` : row.task;
}

const PRIMARY = ['esm', 'accuracy', 'mrr@10', 'rougeL', 'f1'];

function primaryMetric(rows: readonly ScoreRow[], allowed?: readonly string[]): string | undefined {
  const keys = new Set(
    rows.flatMap((row) => Object.keys(row.scores)).filter((key) => !allowed || allowed.includes(key)),
  );
  return PRIMARY.find((key) => keys.has(key)) ?? [...keys][0];
}

function estimate(values: readonly number[], seedText: string): Estimate {
  return bootstrapMean(values, seedOf(seedText));
}

function summariseGroup(run: RunRecord, group: string, rows: ScoreRow[]) {
  const statuses: Record<string, number> = {};
  for (const row of rows) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
  const metricKeys = [...new Set(rows.flatMap((row) => Object.keys(row.scores)))].filter(
    (key) => key !== 'firstRank' && key !== 'allRank',
  );
  /** Metrics whose values all lie in [0, 1] are shown as percentages; counts (KG tp/fp/fn) as they are. */
  const fractional = metricKeys.filter((key) =>
    rows.every((row) => row.scores[key] === undefined || (row.scores[key]! >= 0 && row.scores[key]! <= 1)),
  );
  const metrics = Object.fromEntries(
    metricKeys.map((key) => [
      key,
      estimate(
        rows.flatMap((row) => (typeof row.scores[key] === 'number' ? [row.scores[key]!] : [])),
        `${run.id}/${group}/${key}`,
      ),
    ]),
  );
  const primary = primaryMetric(rows, fractional);
  const numbers = (key: string) =>
    [...new Set(rows.map((row) => row.params[key]).filter((value) => typeof value === 'number'))].sort(
      (x, y) => (x as number) - (y as number),
    ) as number[];
  const levels = numbers('level');
  const depths = numbers('depth');
  const primaryValue = (row: ScoreRow) => row.scores[primary ?? ''] ?? 0;
  let grid:
    | { metric: string; levels: number[]; depths: number[]; cells: Record<string, Estimate> }
    | undefined;
  if (primary && levels.length > 0 && depths.length > 0) {
    const cells: Record<string, Estimate> = {};
    for (const depth of depths)
      for (const level of levels) {
        const members = rows.filter((row) => row.params.level === level && row.params.depth === depth);
        if (members.length > 0)
          cells[`${depth}|${level}`] = estimate(
            members.map(primaryValue),
            `${run.id}/${group}/${depth}/${level}`,
          );
      }
    grid = { metric: primary, levels, depths, cells };
  }
  const byLevel =
    primary && levels.length > 1
      ? Object.fromEntries(
          levels.map((level) => [
            level,
            estimate(
              rows.filter((row) => row.params.level === level).map(primaryValue),
              `${run.id}/${group}/level/${level}`,
            ),
          ]),
        )
      : undefined;
  const cutoffs = metricKeys.filter((key) => key.startsWith('hr@')).map((key) => Number(key.slice(3)));
  const curve =
    cutoffs.length > 0 ? cutoffs.map((cutoff) => ({ ...metrics[`hr@${cutoff}`]!, cutoff })) : undefined;
  return {
    group,
    task: rows[0]!.task,
    samples: rows.length,
    statuses,
    primary,
    metrics,
    fractional,
    grid,
    byLevel,
    curve,
  };
}

function compareMetric(group: string, metric: string, pairs: ReadonlyArray<{ a: ScoreRow; b: ScoreRow }>) {
  const a = pairs.map((pair) => pair.a.scores[metric]!);
  const b = pairs.map((pair) => pair.b.scores[metric]!);
  const mean = (values: number[]) =>
    values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const binary = [...a, ...b].every((value) => value === 0 || value === 1);
  if (binary) {
    const onlyA = pairs.filter((_, index) => a[index] === 1 && b[index] === 0).length;
    const onlyB = pairs.filter((_, index) => a[index] === 0 && b[index] === 1).length;
    return {
      metric,
      test: 'McNemar (exact)',
      meanA: mean(a),
      meanB: mean(b),
      difference: mean(b) - mean(a),
      onlyA,
      onlyB,
      p: mcnemarExact(onlyA, onlyB),
    };
  }
  const result = pairedBootstrap(
    pairs.map((_, index) => b[index]! - a[index]!),
    seedOf(`${group}/${metric}`),
  );
  return {
    metric,
    test: 'paired bootstrap',
    meanA: mean(a),
    meanB: mean(b),
    difference: result.mean,
    low: result.low,
    high: result.high,
    p: result.p,
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

type RunRows = ReadonlyArray<{ run: RunRecord; results: StoredResult[] }>;

/**
 * The ten-dataset leaderboard, computed with the suite's own counting rules (the same functions
 * Tables A2/A3/3/2/A4 use) but only the cells it shows: quicker than the full report on large stores.
 */
function medodysseyLeaderboard(runs: RunRows): Leaderboard {
  const columns = TEN_DATASETS.map((key) => ({ key, label: key }));
  const labels = displayLabels(runs);
  return {
    suite: 'medodyssey',
    variants: [
      { key: 'esm', label: 'ESM', columns },
      { key: 'ssm', label: 'SSM', columns },
    ],
    rows: runs.map(({ run, results }) => {
      const tables = medodysseyTables(
        results,
        (run.model.contextWindow as number | null | undefined) ?? null,
      );
      return {
        runId: run.id,
        label: labels.get(run.id)!,
        imported: run.source === 'imported',
        samples: results.length,
        values: { esm: tenDatasetScores(tables, 'esm'), ssm: tenDatasetScores(tables, 'ssm') },
      };
    }),
  };
}

function medeurekaLeaderboard(runs: RunRows): Leaderboard {
  const report = buildMedEurekaReport(runs);
  const datasets = [...new Set(report.runs.flatMap((run) => Object.keys(run.datasets)))];
  const columns = [...datasets.map((key) => ({ key, label: key })), { key: 'Avg.', label: 'Avg.' }];
  // Table 3's MRR@10 and Exact HR@10 first (the page opens on the first), then every other n.
  const variants = ['mrr', 'hr']
    .flatMap((metric) =>
      [10, 1, 5, 20, 50, 100, 200, 500].map((n) => ({
        key: `${metric}@${n}`,
        label: `${metric === 'mrr' ? 'MRR' : 'Exact HR'}@${n}`,
        columns,
      })),
    )
    .sort((left, right) => Number(right.key.endsWith('@10')) - Number(left.key.endsWith('@10')));
  return {
    suite: 'medeureka',
    variants,
    rows: report.runs.map((run) => ({
      runId: run.runId,
      label: run.label,
      imported: false,
      samples: Object.values(run.datasets).reduce((sum, scores) => sum + (scores.queries ?? 0), 0),
      values: Object.fromEntries(
        variants.map((variant) => [
          variant.key,
          {
            ...Object.fromEntries(datasets.map((name) => [name, run.datasets[name]?.[variant.key] ?? null])),
            'Avg.': run.average[variant.key] ?? null,
          },
        ]),
      ),
    })),
  };
}

function clueLeaderboard(runs: RunRows): Leaderboard {
  const report = buildClueReport(runs);
  const metricKeys = [
    ...new Set(
      report.runs.flatMap((run) =>
        Object.entries(run.scores).flatMap(([dataset, metrics]) =>
          Object.keys(metrics).map((metric) => `${dataset} ${metric}`),
        ),
      ),
    ),
  ];
  const columns = metricKeys.map((key) => ({ key, label: key }));
  return {
    suite: 'clue',
    variants: [
      {
        key: 'levels',
        label: 'Level 1 / Level 2',
        columns: [
          { key: 'level1', label: 'Level 1' },
          { key: 'level2', label: 'Level 2' },
        ],
      },
      { key: 'metrics', label: 'Every metric', columns },
    ],
    rows: report.runs.map((run) => ({
      runId: run.runId,
      label: run.label,
      imported: false,
      samples: Object.values(run.items).reduce((sum, count) => sum + count, 0),
      values: {
        levels: { level1: run.level1, level2: run.level2 },
        metrics: Object.fromEntries(
          metricKeys.map((key) => {
            const [dataset, metric] = key.split(' ') as [string, string];
            return [key, run.scores[dataset]?.[metric] ?? null];
          }),
        ),
      },
    })),
  };
}
