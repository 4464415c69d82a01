import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** Row counts of every table: equal snapshots mean the store is unchanged. */
export function storeSnapshot(home: string): Record<string, number> | 'absent' {
  const path = join(home, 'medbench.sqlite');
  if (!existsSync(path)) return 'absent';
  const database = new Database(path, { readonly: true });
  try {
    const snapshot: Record<string, number> = {};
    for (const table of ['runs', 'results', 'prompts', 'responses']) {
      snapshot[table] = (database.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    }
    return snapshot;
  } finally {
    database.close();
  }
}

export function resultIds(home: string, options: { missingStore?: string[] } = {}): string[] {
  if (options.missingStore && !existsSync(join(home, 'medbench.sqlite'))) return options.missingStore;
  const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
  try {
    // Killed between creating the file and committing its first migration: a store with no
    // schema yet, which the next command migrates. It holds no results.
    if (options.missingStore && database.pragma('user_version', { simple: true }) === 0)
      return options.missingStore;
    return (
      database.prepare('SELECT sample_id FROM results ORDER BY sample_id').all() as Array<{
        sample_id: string;
      }>
    ).map((row) => row.sample_id);
  } finally {
    database.close();
  }
}

/** Whether any file under `folder` (store, WAL, caches, reports) holds `text` as bytes. */
export function filesContain(folder: string, text: string): string[] {
  const needle = Buffer.from(text, 'utf8');
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => readFileSync(path).includes(needle));
}

/** Every row of every table, hashed: equal digests mean the store is unchanged, row for row. */
export function storeDigest(home: string): string {
  const path = join(home, 'medbench.sqlite');
  if (!existsSync(path)) return 'absent';
  const database = new Database(path, { readonly: true });
  try {
    const hash = createHash('sha256');
    for (const table of ['runs', 'results', 'prompts', 'responses'])
      hash.update(JSON.stringify(database.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all()));
    return hash.digest('hex');
  } finally {
    database.close();
  }
}
