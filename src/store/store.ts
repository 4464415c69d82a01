import { existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import type { ResultFields, RunRecord, ScoreRow, StoredResult } from '../core/run-record.js';
import type { SampleParams, SampleScores, SampleStatus } from '../core/sample.js';
import { ExplicitCacheRecords } from './explicit-cache-records.js';
import { ExportedRequests } from './exported-requests.js';
import { HumanGrades } from './human-grades.js';
import { JudgeRuns } from './judge-runs.js';
import { LeaderboardSnapshots } from './leaderboard-snapshots.js';
import { openStoreFile, openStoreReadonly } from './open-database.js';
import { GZIP_THRESHOLD_CHARS, type PreparedPrompt, preparePrompt, sha256 } from './prepared-prompt.js';
import { ProviderBatches } from './provider-batches.js';
import { RunRecipes } from './run-recipes.js';
import { reportDamage } from './store-damage.js';
import {
  type CachedResponse,
  internedJsonParser,
  type ResponseRow,
  type ResultRow,
  type RunRow,
  resultRowValues,
  toCachedResponse,
  toResult,
  toRun,
} from './store-rows.js';

export type { RunRecord, ScoreRow, StoredResult } from '../core/run-record.js';
export type { ExportedRequest } from './exported-requests.js';
export { type PreparedPrompt, preparePrompt, preparePromptAsync, sha256 } from './prepared-prompt.js';
export { type CachedResponse, reportedCounts } from './store-rows.js';

export type ResultRecord = ResultFields & {
  /** The prompt, as text or already prepared for storage (`preparePrompt`). */
  prompt: string | PreparedPrompt | null;
};

/** The usage fields of a result that involved no model call (baselines, retrievers, imports). */
export const NO_MODEL_CALL = {
  inputTokens: null,
  outputTokens: null,
  cost: null,
  latencyMs: null,
  attempts: 0,
  cacheHit: false,
  error: null,
} as const satisfies Partial<ResultRecord>;

/**
 * The SQLite store: runs, per-sample results, deduplicated prompts and the response
 * cache, in WAL mode. Several medbench processes may share it: creation and migrations take
 * SQLite's write lock first, and every write is a short transaction. A store that does not
 * exist yet is created by the first write, so a command that fails before writing anything
 * leaves no store behind.
 */
export class Store {
  readonly path: string;
  private database: Database.Database;
  /** Reads are answered by an empty in-memory schema until the first write creates the file. */
  private notCreated = false;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly parsedJson = new Map<string, Record<string, unknown>>();

  /** `checked`: another connection of this process checked the store's integrity already. */
  constructor(path: string, options: { readonly?: boolean; checked?: boolean } = {}) {
    this.path = path;
    if (options.readonly) {
      this.database = openStoreReadonly(path);
      return;
    }
    if (path !== ':memory:' && !existsSync(path)) {
      this.notCreated = true;
      this.database = openStoreFile(':memory:', path);
      return;
    }
    // An existing store is checked whole before a write could change it.
    this.database = openStoreFile(path, path, { checkIntegrity: !options.checked });
  }

  /** Creates the store file on the first write. */
  private materialize(): void {
    if (!this.notCreated) return;
    const database = openStoreFile(this.path, this.path);
    this.database.close();
    this.database = database;
    this.statements.clear();
    this.notCreated = false;
  }

  close(): void {
    this.database.close();
  }

  /** Prepared statements are cached: preparing costs more than running a small query. */
  private statement(sql: string): Database.Statement {
    // Another process may have created the store since: read it, not the empty stand-in.
    if (this.notCreated && existsSync(this.path)) this.materialize();
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.database.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  transaction<T>(work: () => T): T {
    this.materialize();
    return this.database.transaction(work)();
  }

  getRun(id: string): RunRecord | undefined {
    const row = this.statement('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined;
    return row ? toRun(row) : undefined;
  }

  listRuns(filter: { suite?: string } = {}): RunRecord[] {
    const rows = (
      filter.suite
        ? this.statement('SELECT * FROM runs WHERE suite = ? ORDER BY created_at, id').all(filter.suite)
        : this.statement('SELECT * FROM runs ORDER BY created_at, id').all()
    ) as RunRow[];
    return rows.map(toRun);
  }

  /** Inserts the run unless it exists (re-running the same command resumes it). */
  ensureRun(run: RunRecord): void {
    this.materialize();
    this.statement(
      `INSERT OR IGNORE INTO runs (id, suite, label, dataset_id, dataset_path, model_json, parameters_json, source, scoring_mode, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      run.id,
      run.suite,
      run.label,
      run.datasetId,
      run.datasetPath,
      JSON.stringify(run.model),
      JSON.stringify(run.parameters),
      run.source,
      run.scoringMode,
      run.createdAt,
    );
  }

  deleteRun(id: string): void {
    this.transaction(() => {
      for (const table of ['results', 'explicit_cache_costs', 'run_recipes', 'run_model_versions'])
        this.statement(`DELETE FROM ${table} WHERE run_id = ?`).run(id);
      this.statement('DELETE FROM runs WHERE id = ?').run(id);
    });
  }

  /** One text column of a run's results by sample id: raw outputs (the viewer's search) or prompt hashes. */
  resultColumn(runId: string, column: 'raw_output' | 'prompt_hash'): Map<string, string | null> {
    const sql = `SELECT sample_id, ${column} FROM results WHERE run_id = ?`;
    return new Map(this.statement(sql).raw(true).all(runId) as Array<[string, string | null]>);
  }

  /** Sample ids of a run that need no more work (every status but `error`). */
  finishedSampleIds(runId: string): Set<string> {
    const rows = this.statement(`SELECT sample_id FROM results WHERE run_id = ? AND status != 'error'`).all(
      runId,
    ) as Array<{ sample_id: string }>;
    return new Set(rows.map((row) => row.sample_id));
  }

  putPrompt(prompt: string | PreparedPrompt): string {
    this.materialize();
    if (typeof prompt === 'string') {
      const hash = sha256(prompt);
      // Skip compressing a long prompt that is already stored.
      if (
        prompt.length >= GZIP_THRESHOLD_CHARS &&
        this.statement('SELECT 1 FROM prompts WHERE hash = ?').get(hash)
      )
        return hash;
      return this.putPrompt(preparePrompt(prompt, hash));
    }
    this.statement('INSERT OR IGNORE INTO prompts (hash, chars, encoding, content) VALUES (?, ?, ?, ?)').run(
      prompt.hash,
      prompt.chars,
      prompt.encoding,
      prompt.content,
    );
    return prompt.hash;
  }

  getPrompt(hash: string): string | undefined {
    const row = this.statement('SELECT encoding, content FROM prompts WHERE hash = ?').get(hash) as
      | { encoding: 'utf8' | 'gzip'; content: Buffer }
      | undefined;
    if (!row) return undefined;
    return (row.encoding === 'gzip' ? gunzipSync(row.content) : row.content).toString('utf8');
  }

  putResult(result: ResultRecord): void {
    this.materialize();
    // A transaction of its own unless the caller already holds one.
    const write = () => {
      const promptHash = result.prompt === null ? null : this.putPrompt(result.prompt);
      this.statement(
        `INSERT OR REPLACE INTO results (run_id, sample_id, task, params_json, gold_json, prompt_hash, prompt_chars, prompt_tokens,
             status, raw_output, parsed_json, scores_json, input_tokens, output_tokens, cost, latency_ms, attempts, cache_hit, error, created_at,
             redaction_json, reasoning_tokens, cached_input_tokens, cache_write_tokens, list_cost)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(...resultRowValues(result, promptHash));
    };
    if (this.database.inTransaction) write();
    else this.transaction(write);
  }

  results(runId: string, filter: { task?: string } = {}): StoredResult[] {
    const rows = (
      filter.task
        ? this.statement('SELECT * FROM results WHERE run_id = ? AND task = ? ORDER BY sample_id').all(
            runId,
            filter.task,
          )
        : this.statement('SELECT * FROM results WHERE run_id = ? ORDER BY sample_id').all(runId)
    ) as ResultRow[];
    return rows.map(toResult);
  }

  /** Only what aggregates read (task, params, status, scores): the leaderboard's fast path. */
  aggregateRows(runId: string): ScoreRow[] {
    const rows = this.statement(
      'SELECT sample_id, task, params_json, status, scores_json FROM results WHERE run_id = ?',
    )
      .raw(true)
      .all(runId) as Array<[string, string, string, SampleStatus, string]>;
    const parse = internedJsonParser(this.parsedJson);
    return rows.map(([sampleId, task, params, status, scores]) => ({
      sampleId,
      task,
      params: parse(params, runId, sampleId, 'params_json') as SampleParams,
      status,
      scores: parse(scores, runId, sampleId, 'scores_json') as SampleScores,
      promptChars: null,
      promptTokens: null,
      inputTokens: null,
      outputTokens: null,
      cost: null,
    }));
  }

  scoreRows(runId: string): ScoreRow[] {
    // Raw rows (arrays) skip building a keyed object per row: a third faster on large runs.
    const rows = this.statement(
      'SELECT sample_id, task, params_json, status, scores_json, prompt_chars, prompt_tokens, input_tokens, output_tokens, cost FROM results WHERE run_id = ? ORDER BY sample_id',
    )
      .raw(true)
      .all(runId) as Array<
      [
        string,
        string,
        string,
        SampleStatus,
        string,
        number | null,
        number | null,
        number | null,
        number | null,
        number | null,
      ]
    >;
    const parse = internedJsonParser(this.parsedJson);
    return rows.map(
      ([
        sampleId,
        task,
        params,
        status,
        scores,
        promptChars,
        promptTokens,
        inputTokens,
        outputTokens,
        cost,
      ]) => ({
        sampleId,
        task,
        params: parse(params, runId, sampleId, 'params_json') as SampleParams,
        status,
        scores: parse(scores, runId, sampleId, 'scores_json') as SampleScores,
        promptChars,
        promptTokens,
        inputTokens,
        outputTokens,
        cost,
      }),
    );
  }

  /** Replaces a run's parameters (what a later scoring step records, such as the UMLS source). */
  updateRunParameters(runId: string, parameters: Record<string, unknown>): void {
    this.materialize();
    this.statement('UPDATE runs SET parameters_json = ? WHERE id = ?').run(JSON.stringify(parameters), runId);
  }

  /** Replaces a result's scores (metrics computed after generation, such as BERTScore). */
  updateScores(runId: string, sampleId: string, scores: SampleScores): void {
    this.materialize();
    this.statement('UPDATE results SET scores_json = ? WHERE run_id = ? AND sample_id = ?').run(
      JSON.stringify(scores),
      runId,
      sampleId,
    );
  }

  /** One stored result, or undefined. */
  result(runId: string, sampleId: string): StoredResult | undefined {
    const row = this.statement('SELECT * FROM results WHERE run_id = ? AND sample_id = ?').get(
      runId,
      sampleId,
    ) as ResultRow | undefined;
    return row ? toResult(row) : undefined;
  }

  /** Each suite's saved leaderboard, valid while its runs' results are unchanged. */
  readonly leaderboards = new LeaderboardSnapshots(...this.tableAccess());
  /** Requests written out for an engine (`export requests`), answered by `import responses`. */
  readonly exportedRequests = new ExportedRequests(...this.tableAccess());
  /** `run --batch`: each provider batch's step in its lifecycle, and its requests' outcomes. */
  readonly providerBatches = new ProviderBatches(...this.tableAccess());
  /** Explicit prompt caches (Gemini's) made and not deleted yet: a killed run's, for the next run. */
  readonly explicitCaches = new ExplicitCacheRecords(...this.tableAccess());
  /** What each run was made from (its manifest), and the model versions the provider named. */
  readonly recipes = new RunRecipes(...this.tableAccess());
  /** A judge's runs and the run each grades (medbench judge). */
  readonly judgeRuns = new JudgeRuns(...this.tableAccess());
  /** People's grades of stored answers, with their history (docs/review.md). */
  readonly humanGrades = new HumanGrades(...this.tableAccess());

  /** What a table's own class reads and writes through: the database, the first write, the path, the cache. */
  private tableAccess() {
    return [
      () => this.database,
      () => this.materialize(),
      () => this.path,
      (entry: Parameters<Store['putCachedResponse']>[0]) => this.putCachedResponse(entry),
    ] as const;
  }

  /** SQLite's data_version: changes when another connection commits (the viewer's cache key). */
  dataVersion(): number {
    return this.database.pragma('data_version', { simple: true }) as number;
  }

  countResults(runId: string): number {
    return (this.statement('SELECT COUNT(*) AS n FROM results WHERE run_id = ?').get(runId) as { n: number })
      .n;
  }

  /** The response cache's keys for one provider and model (an index holds them in order). */
  responseKeys(provider: string, modelId: string): string[] {
    return this.statement('SELECT cache_key FROM responses WHERE provider = ? AND model_id = ?')
      .pluck()
      .all(provider, modelId) as string[];
  }

  getCachedResponse(cacheKey: string): CachedResponse | undefined {
    const row = this.statement(
      `SELECT text, input_tokens, output_tokens, reasoning_tokens, cached_input_tokens, cache_write_tokens, finish_reason
         FROM responses WHERE cache_key = ?`,
    ).get(cacheKey) as ResponseRow | undefined;
    return row ? toCachedResponse(row) : undefined;
  }

  putCachedResponse(entry: {
    cacheKey: string;
    provider: string;
    modelId: string;
    response: CachedResponse;
  }): void {
    this.materialize();
    this.statement(
      `INSERT OR REPLACE INTO responses (cache_key, provider, model_id, text, input_tokens, output_tokens, finish_reason, created_at,
           reasoning_tokens, cached_input_tokens, cache_write_tokens)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      entry.cacheKey,
      entry.provider,
      entry.modelId,
      entry.response.text,
      entry.response.inputTokens,
      entry.response.outputTokens,
      entry.response.finishReason,
      new Date().toISOString(),
      entry.response.reasoningTokens ?? null,
      entry.response.cachedInputTokens ?? null,
      entry.response.cacheWriteTokens ?? null,
    );
  }

  countCachedResponses(): number {
    return (this.statement('SELECT COUNT(*) AS n FROM responses').get() as { n: number }).n;
  }
}

reportDamage(Store.prototype, (store) => store.path);
