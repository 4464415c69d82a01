import { StoreTable } from './store-table.js';

/** Which model's caches: the binding's provider and model, and the endpoint that holds them. */
export interface CacheOwner {
  provider: string;
  modelId: string;
  endpoint: string;
}

/** An explicit cache a run made at a provider, until it deletes it. */
export interface ExplicitCacheRecord extends CacheOwner {
  /** The provider's name of the cache. */
  name: string;
  /** Digest of the leading messages it holds (`messagesDigest`). */
  prefixDigest: string;
  tokens: number;
  /** When it expires unless extended (ISO 8601). */
  expiresAt: string;
  runId: string;
  createdAt: string;
}

interface CacheRow {
  name: string;
  provider: string;
  model_id: string;
  endpoint: string;
  prefix_digest: string;
  tokens: number;
  expires_at: string;
  run_id: string;
  created_at: string;
}

/**
 * The explicit caches (Gemini's `cachedContents`) runs made and have not deleted: a killed run's
 * are found here by the next run, which reuses those it needs and deletes the others, so that
 * none is left billing storage past its lifetime.
 */
export class ExplicitCacheRecords extends StoreTable {
  add(record: ExplicitCacheRecord): void {
    this.beforeWrite();
    this.database()
      .prepare(
        `INSERT OR REPLACE INTO explicit_caches (name, provider, model_id, endpoint, prefix_digest, tokens, expires_at, run_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        record.name,
        record.provider,
        record.modelId,
        record.endpoint,
        record.prefixDigest,
        record.tokens,
        record.expiresAt,
        record.runId,
        record.createdAt,
      );
  }

  /** A new expiry of a cache extended. */
  extended(name: string, expiresAt: string): void {
    this.database().prepare('UPDATE explicit_caches SET expires_at = ? WHERE name = ?').run(expiresAt, name);
  }

  /** The cache is deleted (or found gone). */
  remove(name: string): void {
    this.database().prepare('DELETE FROM explicit_caches WHERE name = ?').run(name);
  }

  /** The owner's caches not deleted, oldest first. */
  of(owner: CacheOwner): ExplicitCacheRecord[] {
    const rows = this.database()
      .prepare(
        `SELECT * FROM explicit_caches WHERE provider = ? AND model_id = ? AND endpoint = ? ORDER BY created_at, name`,
      )
      .all(owner.provider, owner.modelId, owner.endpoint) as CacheRow[];
    return rows.map((row) => ({
      name: row.name,
      provider: row.provider,
      modelId: row.model_id,
      endpoint: row.endpoint,
      prefixDigest: row.prefix_digest,
      tokens: row.tokens,
      expiresAt: row.expires_at,
      runId: row.run_id,
      createdAt: row.created_at,
    }));
  }

  /** Adds to what one of a run's explicit caches cost for a task (billed apart from the answers). */
  addCost(cost: { runId: string; task: string; cache: string; cost: number }): void {
    this.beforeWrite();
    this.database()
      .prepare(
        `INSERT INTO explicit_cache_costs (run_id, task, cache, cost) VALUES (?, ?, ?, ?)
         ON CONFLICT (run_id, task, cache) DO UPDATE SET cost = cost + excluded.cost`,
      )
      .run(cost.runId, cost.task, cost.cache, cost.cost);
  }

  /** What a run's explicit caches cost, by task. */
  costsOf(runId: string): Map<string, number> {
    const rows = this.database()
      .prepare('SELECT task, SUM(cost) AS cost FROM explicit_cache_costs WHERE run_id = ? GROUP BY task')
      .all(runId) as Array<{ task: string; cost: number }>;
    return new Map(rows.map((row) => [row.task, row.cost]));
  }
}
