import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { MedbenchError } from '../core/errors.js';
import { openStoreFile } from './open-database.js';

/** What one merge did: rows brought in, and results both stores hold with different answers. */
export interface MergeSummary {
  source: string;
  runs: number;
  results: number;
  /** Results the target held as `error` that the source holds answered. */
  errorsReplaced: number;
  /** Results answered differently in both: the target's are kept. */
  conflicts: number;
  prompts: number;
  responses: number;
}

/** A store file from a home folder or a file path; an error naming it when there is none. */
export function storeFileOf(path: string): string {
  const absolute = resolve(path);
  const file =
    existsSync(absolute) && statSync(absolute).isDirectory() ? join(absolute, 'medbench.sqlite') : absolute;
  if (!existsSync(file))
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `No medbench store at ${file}.`,
      hint: 'Give a home folder (holding medbench.sqlite) or the store file itself.',
    });
  return file;
}

/** The columns of a table as the target has them (a source at the same schema has the same). */
function columnsOf(database: Database.Database, table: string): string {
  const rows = database.prepare(`PRAGMA main.table_info(${table})`).all() as Array<{ name: string }>;
  return rows
    .map((row) => row.name)
    .filter((name) => name !== 'results_version')
    .map((name) => `"${name}"`)
    .join(', ');
}

function copyMissing(database: Database.Database, table: string): number {
  const columns = columnsOf(database, table);
  return database
    .prepare(`INSERT OR IGNORE INTO main.${table} (${columns}) SELECT ${columns} FROM src.${table}`)
    .run().changes;
}

/** Brings one source store's rows into the target, in one transaction. */
function mergeOne(database: Database.Database, source: string): MergeSummary {
  // Brought to the current schema first (a store of an older medbench is migrated in place).
  openStoreFile(source, source).close();
  database.prepare('ATTACH DATABASE ? AS src').run(source);
  try {
    return database.transaction(() => {
      const runs = copyMissing(database, 'runs');
      const prompts = copyMissing(database, 'prompts');
      const responses = copyMissing(database, 'responses');
      // What the shard's explicit caches cost (one row per cache: merged twice, counted once).
      copyMissing(database, 'explicit_cache_costs');
      // What each run was made from, and the model versions its answers named (a shard's too).
      copyMissing(database, 'run_recipes');
      copyMissing(database, 'run_model_versions');
      // Which runs grade which (medbench judge).
      copyMissing(database, 'judge_runs');
      // People's grades (each row once: its id is a digest of it).
      copyMissing(database, 'human_grades');
      const columns = columnsOf(database, 'results');
      const picked = columns
        .split(', ')
        .map((column) => `s.${column}`)
        .join(', ');
      const conflicts = (
        database
          .prepare(
            `SELECT COUNT(*) AS n FROM src.results s JOIN main.results t ON t.run_id = s.run_id AND t.sample_id = s.sample_id
             WHERE s.status != 'error' AND t.status != 'error'
               AND (s.raw_output IS NOT t.raw_output OR s.scores_json IS NOT t.scores_json OR s.redaction_json IS NOT t.redaction_json)`,
          )
          .get() as { n: number }
      ).n;
      const errorsReplaced = database
        .prepare(
          `INSERT OR REPLACE INTO main.results (${columns}) SELECT ${picked} FROM src.results s
           JOIN main.results t ON t.run_id = s.run_id AND t.sample_id = s.sample_id
           WHERE t.status = 'error' AND s.status != 'error'`,
        )
        .run().changes;
      const results = database
        .prepare(
          `INSERT INTO main.results (${columns}) SELECT ${picked} FROM src.results s
           WHERE NOT EXISTS (SELECT 1 FROM main.results t WHERE t.run_id = s.run_id AND t.sample_id = s.sample_id)`,
        )
        .run().changes;
      return { source, runs, results, errorsReplaced, conflicts, prompts, responses };
    })();
  } finally {
    database.exec('DETACH DATABASE src');
  }
}

/**
 * Merges other stores into `target` (created if missing): runs, results, prompts and cached
 * responses the target lacks. The shards of one run (`run --shard i/n`) share its id, so their
 * results join into one run whose report equals a single machine's. A result the target holds as
 * an error is replaced by the source's answer; two different answers to one sample are counted
 * as conflicts and the target's is kept. Every source is checked before anything is written.
 */
export function mergeStores(target: string, sources: readonly string[]): MergeSummary[] {
  const files = sources.map(storeFileOf);
  const targetFile = resolve(target);
  for (const file of files)
    if (resolve(file) === targetFile)
      throw new MedbenchError({ code: 'USAGE', message: `${file} is the store being merged into.` });
  const database = openStoreFile(targetFile, targetFile);
  try {
    return files.map((file) => mergeOne(database, file));
  } finally {
    database.close();
  }
}
