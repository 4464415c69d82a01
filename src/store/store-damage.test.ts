import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/temporary-folder.js';
import { testResult, testRun } from '../../test/support/test-run.js';
import { MedbenchError } from '../core/errors.js';
import { Store } from './store.js';

/** A store with one run and one result, closed; its path. */
function storeWithOneResult(): string {
  const path = join(temporaryFolder('medbench-damage-'), 'medbench.sqlite');
  const store = new Store(path);
  store.ensureRun(testRun({ id: 'r1' }));
  store.putResult({
    ...testResult({ task: 'niah', gold: { answers: ['a'] }, rawOutput: 'a' }),
    runId: 'r1',
    sampleId: 's1',
    prompt: 'p',
  });
  store.close();
  return path;
}

function change(path: string, sql: string): void {
  const database = new Database(path);
  database.exec(sql);
  database.close();
}

/** What opening (and, read-only, reading) the store at `path` throws. */
function failure(path: string, options: { readonly?: boolean } = {}): MedbenchError {
  try {
    const store = new Store(path, options);
    store.results('r1');
    store.close();
  } catch (error) {
    expect(error).toBeInstanceOf(MedbenchError);
    return error as MedbenchError;
  }
  throw new Error('no error');
}

describe('a damaged store', () => {
  it('a missing column is named, on opening to write and to read, and the file is left as it was', () => {
    const path = storeWithOneResult();
    change(path, 'ALTER TABLE results DROP COLUMN redaction_json');
    const bytes = readFileSync(path);
    for (const readonly of [false, true]) {
      const error = failure(path, { readonly });
      expect(error.code).toBe('STORE_DAMAGED');
      expect(error.message).toBe(
        `The medbench store at ${path} is damaged: its column "results.redaction_json" is missing.`,
      );
      expect(error.hint).toMatch(/from a backup, or move it .*away and re-run/);
    }
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('a JSON column that does not parse is named with its row: before a write, and where a read meets it', () => {
    const path = storeWithOneResult();
    change(path, "UPDATE results SET gold_json = '[1,' WHERE sample_id = 's1'");
    const said = `The medbench store at ${path} is damaged: results.gold_json of run r1, sample s1 is not JSON.`;
    expect(failure(path).message).toBe(said);
    expect(failure(path, { readonly: true }).message).toBe(said);
  });

  it('other SQLite errors pass through as they were', () => {
    const path = storeWithOneResult();
    const store = new Store(path, { readonly: true });
    let thrown: unknown;
    try {
      store.deleteRun('r1');
    } catch (error) {
      thrown = error;
    }
    store.close();
    expect(thrown).toBeInstanceOf(Database.SqliteError);
    expect((thrown as Error).message).toBe('attempt to write a readonly database');
  });
});
