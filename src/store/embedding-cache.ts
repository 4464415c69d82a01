import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Embeddings on disk, in their own SQLite file beside the store (vectors are large and the
 * viewer never needs them). A vector is keyed by the model's identity (provider, endpoint, id,
 * revision, dimensions) and the hash of the exact text embedded — which for queries includes
 * the instruction and template — so a second run, or a run with another metric, re-embeds nothing.
 */
export class EmbeddingCache {
  private readonly database: Database.Database;
  private readonly select: Database.Statement<[string, Buffer], { vector: Buffer }>;
  private readonly insert: Database.Statement<[string, Buffer, Buffer]>;

  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.database = new Database(path);
    this.database.pragma('journal_mode = WAL');
    this.database.pragma('synchronous = NORMAL');
    this.database.exec(
      'CREATE TABLE IF NOT EXISTS embeddings (model_key TEXT NOT NULL, text_hash BLOB NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model_key, text_hash)) WITHOUT ROWID',
    );
    this.select = this.database.prepare(
      'SELECT vector FROM embeddings WHERE model_key = ? AND text_hash = ?',
    );
    this.insert = this.database.prepare(
      'INSERT OR REPLACE INTO embeddings (model_key, text_hash, vector) VALUES (?, ?, ?)',
    );
  }

  static textHash(text: string): Buffer {
    return createHash('sha256').update(text).digest();
  }

  get(modelKey: string, text: string): Float32Array | undefined {
    const row = this.select.get(modelKey, EmbeddingCache.textHash(text));
    if (!row) return undefined;
    const copy = new Uint8Array(row.vector.byteLength);
    copy.set(row.vector);
    return new Float32Array(copy.buffer);
  }

  /** Stores a batch in one transaction. */
  putMany(modelKey: string, entries: ReadonlyArray<{ text: string; vector: Float32Array }>): void {
    this.database.transaction(() => {
      for (const { text, vector } of entries)
        this.insert.run(
          modelKey,
          EmbeddingCache.textHash(text),
          Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
        );
    })();
  }

  count(modelKey: string): number {
    return (
      this.database.prepare('SELECT count(*) AS n FROM embeddings WHERE model_key = ?').get(modelKey) as {
        n: number;
      }
    ).n;
  }

  close(): void {
    this.database.close();
  }
}
