import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzip, gzipSync } from 'node:zlib';

const gzipAsync = promisify(gzip);

import Database from 'better-sqlite3';
import { fileError, isFileSystemError, MedbenchError } from '../core/errors.js';
import type { ResultFields, RunRecord, ScoreRow, StoredResult } from '../core/run-record.js';
import type { SampleParams, SampleScores, SampleStatus } from '../core/sample.js';
import { MIGRATIONS } from './migrations.js';

export type { RunRecord, ScoreRow, StoredResult } from '../core/run-record.js';

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

export interface CachedResponse {
  text: string;
  inputTokens: number | null;
  outputTokens: number | null;
  finishReason: string | null;
}

interface ResultRow {
  run_id: string;
  sample_id: string;
  task: string;
  params_json: string;
  gold_json: string;
  prompt_hash: string | null;
  prompt_chars: number | null;
  prompt_tokens: number | null;
  status: SampleStatus;
  raw_output: string | null;
  parsed_json: string | null;
  scores_json: string;
  input_tokens: number | null;
  output_tokens: number | null;
  cost: number | null;
  latency_ms: number | null;
  attempts: number | null;
  cache_hit: number;
  error: string | null;
  created_at: string;
}

interface RunRow {
  id: string;
  suite: string;
  label: string;
  dataset_id: string;
  dataset_path: string | null;
  model_json: string;
  parameters_json: string;
  source: 'medbench' | 'imported';
  scoring_mode: 'standard' | 'compat';
  created_at: string;
}

/** Prompts at least this long are stored gzip-compressed. */
const GZIP_THRESHOLD_CHARS = 4096;

/** A prompt hashed (and compressed, when long) for storage: the CPU work of writing it, done ahead. */
export interface PreparedPrompt {
  hash: string;
  chars: number;
  encoding: 'utf8' | 'gzip';
  content: Buffer;
}

/** `preparePrompt` with the compression on libuv's thread pool, off the event loop. */
export async function preparePromptAsync(text: string): Promise<PreparedPrompt> {
  if (text.length < GZIP_THRESHOLD_CHARS) return preparePrompt(text);
  return {
    hash: sha256(text),
    chars: text.length,
    encoding: 'gzip',
    content: await gzipAsync(text, { level: 1 }),
  };
}

/**
 * Hashes and, past 4,096 characters, compresses a prompt. The runner does this before a request
 * is sent, so that committing the answer when it arrives costs only the inserts.
 */
export function preparePrompt(text: string, hash = sha256(text)): PreparedPrompt {
  const long = text.length >= GZIP_THRESHOLD_CHARS;
  return {
    hash,
    chars: text.length,
    encoding: long ? 'gzip' : 'utf8',
    // Short prompts are stored as they are: compressing them costs more than it saves.
    content: long ? gzipSync(text, { level: 1 }) : Buffer.from(text, 'utf8'),
  };
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function toRun(row: RunRow): RunRecord {
  return {
    id: row.id,
    suite: row.suite,
    label: row.label,
    datasetId: row.dataset_id,
    datasetPath: row.dataset_path,
    model: JSON.parse(row.model_json),
    parameters: JSON.parse(row.parameters_json),
    source: row.source,
    scoringMode: row.scoring_mode,
    createdAt: row.created_at,
  };
}

function toResult(row: ResultRow): StoredResult {
  return {
    runId: row.run_id,
    sampleId: row.sample_id,
    task: row.task,
    params: JSON.parse(row.params_json),
    gold: JSON.parse(row.gold_json),
    promptHash: row.prompt_hash,
    promptChars: row.prompt_chars,
    promptTokens: row.prompt_tokens,
    status: row.status,
    rawOutput: row.raw_output,
    parsed: row.parsed_json === null ? null : JSON.parse(row.parsed_json),
    scores: JSON.parse(row.scores_json),
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    cost: row.cost,
    latencyMs: row.latency_ms,
    attempts: row.attempts,
    cacheHit: row.cache_hit === 1,
    error: row.error,
    createdAt: row.created_at,
  };
}

/** SQLite's busy handler waits this long for another process's write lock. */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * The SQLite store: runs, per-sample results, deduplicated prompts and the response
 * cache, in WAL mode. Several medbench processes may share it: creation and migrations take
 * SQLite's write lock first, and every write is a short transaction. A store that does not
 * exist yet is created by the first write, so a command that fails before writing anything
 * leaves no store behind.
 */
/**
 * Runs `work` again while SQLite answers SQLITE_BUSY without waiting (lock escalations it refuses
 * to wait for), with short random pauses, for up to the busy timeout.
 */
function whileBusy<T>(work: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    try {
      return work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() > deadline) throw error;
      Atomics.wait(pause, 0, 0, Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random()));
    }
  }
}

export class Store {
  readonly path: string;
  private database: Database.Database;
  /** Reads are answered by an empty in-memory schema until the first write creates the file. */
  private notCreated = false;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly parsedJson = new Map<string, Record<string, unknown>>();

  constructor(path: string, options: { readonly?: boolean } = {}) {
    this.path = path;
    if (options.readonly) {
      this.database = Store.openReadonly(path);
      return;
    }
    if (path !== ':memory:' && !existsSync(path)) {
      this.notCreated = true;
      this.database = Store.openFile(':memory:', path);
      return;
    }
    this.database = Store.openFile(path, path);
  }

  /** Opens (creating if needed) and migrates; concurrent processes wait for each other's lock. */
  private static openFile(location: string, shownPath: string): Database.Database {
    try {
      if (location !== ':memory:') mkdirSync(dirname(location), { recursive: true });
      const database = new Database(location);
      database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      // Switching a new file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at once
      // (no busy handler, to avoid a deadlock) when another process holds the file's lock then.
      whileBusy(() => database.pragma('journal_mode = WAL'));
      database.pragma('synchronous = NORMAL');
      database.pragma('foreign_keys = ON');
      // Checkpoint (and fsync) every ~40 MB of WAL rather than every 4 MB: commits stay cheap
      // during long runs; a crash still loses nothing committed.
      database.pragma('wal_autocheckpoint = 10000');
      whileBusy(() => Store.migrate(database));
      return database;
    } catch (error) {
      if (isFileSystemError(error)) throw fileError(error, { path: shownPath, action: 'write' });
      throw new MedbenchError({
        code: 'STORE_ERROR',
        message: `Cannot open the medbench store at ${shownPath}: ${(error as Error).message}`,
        hint: 'Check that the folder exists or can be created and is writable, or choose another with --home / MEDBENCH_HOME.',
        cause: error,
      });
    }
  }

  /**
   * Applies the missing migrations, each under SQLite's write lock (BEGIN IMMEDIATE) with the
   * version read again inside it: of several processes creating one store at once, one
   * migrates and the others find the work done.
   */
  private static migrate(database: Database.Database): void {
    for (;;) {
      const done = database
        .transaction(() => {
          const version = database.pragma('user_version', { simple: true }) as number;
          if (version > MIGRATIONS.length)
            throw new Error(
              `the store was written by a newer medbench (schema ${version} > ${MIGRATIONS.length})`,
            );
          if (version === MIGRATIONS.length) return true;
          database.exec(MIGRATIONS[version]!);
          database.pragma(`user_version = ${version + 1}`);
          return false;
        })
        .immediate();
      if (done) return;
    }
  }

  /** Creates the store file on the first write. */
  private materialize(): void {
    if (!this.notCreated) return;
    const database = Store.openFile(this.path, this.path);
    this.database.close();
    this.database = database;
    this.statements.clear();
    this.notCreated = false;
  }

  /**
   * Read-only access (report, view, export): no migrations, no writes. On a read-only file
   * system SQLite cannot open a WAL store that was closed cleanly (it needs its -shm file); the
   * store is then read into memory as it is on disk.
   */
  private static openReadonly(path: string): Database.Database {
    if (!existsSync(path)) {
      throw new MedbenchError({
        code: 'STORE_ERROR',
        message: `There is no medbench store at ${path}.`,
        hint: 'Run an evaluation first (e.g. `medbench demo`), or point --home / MEDBENCH_HOME at the folder holding medbench.sqlite.',
      });
    }
    let database: Database.Database;
    try {
      database = new Database(path, { readonly: true, fileMustExist: true });
      database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      database.pragma('user_version', { simple: true });
    } catch (error) {
      database = Store.readIntoMemory(path, error);
    }
    const version = database.pragma('user_version', { simple: true }) as number;
    if (version !== MIGRATIONS.length) {
      database.close();
      throw new MedbenchError({
        code: 'STORE_ERROR',
        message: `The medbench store at ${path} has schema version ${version}; this medbench reads ${MIGRATIONS.length}.`,
        hint:
          version < MIGRATIONS.length
            ? 'Run any medbench command that writes (e.g. `medbench run` or `import`) on it once, to migrate it.'
            : 'It was written by a newer medbench: update medbench.',
      });
    }
    return database;
  }

  private static readIntoMemory(path: string, openError: unknown): Database.Database {
    const wal = `${path}-wal`;
    const cannotRead = (why: string) =>
      new MedbenchError({
        code: 'STORE_ERROR',
        message: `Cannot read the medbench store at ${path}: ${why}`,
        hint: 'Check that the file is readable; on a read-only file system, copy the store (with its -wal file) somewhere writable.',
        cause: openError,
      });
    if (existsSync(wal) && statSync(wal).size > 0)
      throw cannotRead(
        `${(openError as Error).message}, and its -wal file holds commits not yet in the main file`,
      );
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      throw cannotRead((error as Error).message);
    }
    // Bytes 18–19 of the header say "WAL"; an in-memory copy must say "rollback journal".
    if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) {
      bytes[18] = 1;
      bytes[19] = 1;
    }
    try {
      return new Database(bytes, { readonly: true });
    } catch (error) {
      throw cannotRead((error as Error).message);
    }
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
      this.statement('DELETE FROM results WHERE run_id = ?').run(id);
      this.statement('DELETE FROM runs WHERE id = ?').run(id);
    });
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
             status, raw_output, parsed_json, scores_json, input_tokens, output_tokens, cost, latency_ms, attempts, cache_hit, error, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        result.runId,
        result.sampleId,
        result.task,
        JSON.stringify(result.params),
        JSON.stringify(result.gold),
        promptHash,
        result.promptChars,
        result.promptTokens,
        result.status,
        result.rawOutput,
        result.parsed === undefined ? null : JSON.stringify(result.parsed),
        JSON.stringify(result.scores),
        result.inputTokens,
        result.outputTokens,
        result.cost,
        result.latencyMs,
        result.attempts,
        result.cacheHit ? 1 : 0,
        result.error,
        new Date().toISOString(),
      );
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

  /** What lists and aggregates need, without gold, outputs or rankings: fast over large runs. */
  /**
   * Runs over one dataset repeat the same params and score strings: parse each once. The parsed
   * objects are shared between rows, so callers must treat them as read-only.
   */
  private internedParser(): (text: string) => Record<string, unknown> {
    if (this.parsedJson.size > 500_000) this.parsedJson.clear();
    return (text) => {
      let value = this.parsedJson.get(text);
      if (value === undefined) {
        value = JSON.parse(text) as Record<string, unknown>;
        this.parsedJson.set(text, value);
      }
      return value;
    };
  }

  /** Only what aggregates read (task, params, status, scores): the leaderboard's fast path. */
  aggregateRows(runId: string): ScoreRow[] {
    const rows = this.statement('SELECT task, params_json, status, scores_json FROM results WHERE run_id = ?')
      .raw(true)
      .all(runId) as Array<[string, string, SampleStatus, string]>;
    const parse = this.internedParser();
    return rows.map(([task, params, status, scores]) => ({
      sampleId: '',
      task,
      params: parse(params) as SampleParams,
      status,
      scores: parse(scores) as SampleScores,
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
    const parse = this.internedParser();
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
        params: parse(params) as SampleParams,
        status,
        scores: parse(scores) as SampleScores,
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

  /** SQLite's data_version: changes when another connection commits (the viewer's cache key). */
  dataVersion(): number {
    return this.database.pragma('data_version', { simple: true }) as number;
  }

  countResults(runId: string): number {
    return (this.statement('SELECT COUNT(*) AS n FROM results WHERE run_id = ?').get(runId) as { n: number })
      .n;
  }

  getCachedResponse(cacheKey: string): CachedResponse | undefined {
    const row = this.statement(
      'SELECT text, input_tokens, output_tokens, finish_reason FROM responses WHERE cache_key = ?',
    ).get(cacheKey) as
      | {
          text: string;
          input_tokens: number | null;
          output_tokens: number | null;
          finish_reason: string | null;
        }
      | undefined;
    return row
      ? {
          text: row.text,
          inputTokens: row.input_tokens,
          outputTokens: row.output_tokens,
          finishReason: row.finish_reason,
        }
      : undefined;
  }

  putCachedResponse(entry: {
    cacheKey: string;
    provider: string;
    modelId: string;
    response: CachedResponse;
  }): void {
    this.materialize();
    this.statement(
      `INSERT OR REPLACE INTO responses (cache_key, provider, model_id, text, input_tokens, output_tokens, finish_reason, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      entry.cacheKey,
      entry.provider,
      entry.modelId,
      entry.response.text,
      entry.response.inputTokens,
      entry.response.outputTokens,
      entry.response.finishReason,
      new Date().toISOString(),
    );
  }

  countCachedResponses(): number {
    return (this.statement('SELECT COUNT(*) AS n FROM responses').get() as { n: number }).n;
  }
}
