import { reportDamage } from './store-damage.js';
import type { CachedResponse } from './store-rows.js';
import { StoreTable } from './store-table.js';

/** A request written out for an engine to answer, by its response cache key. */
export interface ExportedRequest {
  cacheKey: string;
  provider: string;
  modelId: string;
  /** The batch line's path (`/v1/chat/completions`). */
  url: string;
  /** The prompt's tokens as the run counted them (null: no tokenizer), for an answer without usage. */
  promptTokens: number | null;
  runId: string;
}

/**
 * The requests `medbench export requests` wrote out, so that `medbench import responses` takes
 * an engine's answer only for one of them, into the response cache under that request's model.
 */
export class ExportedRequests extends StoreTable {
  /** Records requests written out (one transaction); one exported again is recorded again. */
  record(requests: readonly ExportedRequest[]): void {
    if (requests.length === 0) return;
    this.beforeWrite();
    const database = this.database();
    const insert = database.prepare(
      'INSERT OR REPLACE INTO exported_requests (cache_key, provider, model_id, url, prompt_tokens, run_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const now = new Date().toISOString();
    database.transaction(() => {
      for (const request of requests)
        insert.run(
          request.cacheKey,
          request.provider,
          request.modelId,
          request.url,
          request.promptTokens,
          request.runId,
          now,
        );
    })();
  }

  /** The exported request under `cacheKey`, if one was. */
  find(cacheKey: string): ExportedRequest | undefined {
    const row = this.database()
      .prepare(
        'SELECT cache_key, provider, model_id, url, prompt_tokens, run_id FROM exported_requests WHERE cache_key = ?',
      )
      .get(cacheKey) as
      | {
          cache_key: string;
          provider: string;
          model_id: string;
          url: string;
          prompt_tokens: number | null;
          run_id: string;
        }
      | undefined;
    return row
      ? {
          cacheKey: row.cache_key,
          provider: row.provider,
          modelId: row.model_id,
          url: row.url,
          promptTokens: row.prompt_tokens,
          runId: row.run_id,
        }
      : undefined;
  }

  /** Answers to exported requests, into the response cache under each request's model (one transaction). */
  answer(answers: ReadonlyArray<{ request: ExportedRequest; response: CachedResponse }>): void {
    if (answers.length === 0) return;
    this.beforeWrite();
    this.database().transaction(() => {
      for (const { request, response } of answers)
        this.putResponse({
          cacheKey: request.cacheKey,
          provider: request.provider,
          modelId: request.modelId,
          response,
        });
    })();
  }
}

reportDamage(ExportedRequests.prototype, (requests) => requests.storePath());
