import { randomUUID } from 'node:crypto';
import { reportDamage } from './store-damage.js';
import type { CachedResponse } from './store-rows.js';
import { StoreTable } from './store-table.js';

/**
 * A provider batch's step, each recorded before or after its remote call: `prepared` (its requests
 * chosen, nothing sent), `uploaded` (the file is there), `submitting` (the creating call may have
 * gone out), `submitted` (the provider's id is known), `ended` (its results can be read), `done`
 * (every result read), `failed` (it ended without results).
 */
export type BatchState = 'prepared' | 'uploaded' | 'submitting' | 'submitted' | 'ended' | 'done' | 'failed';

/** Which model's batches: the binding's provider and model (as the response cache keys them) and the endpoint. */
export interface BatchOwner {
  provider: string;
  modelId: string;
  endpoint: string;
}

export interface ProviderBatch extends BatchOwner {
  /** medbench's id of the submission. */
  id: string;
  runId: string;
  state: BatchState;
  size: number;
  fileId: string | undefined;
  batchId: string | undefined;
  submittedAt: string | undefined;
  reason: string | undefined;
  createdAt: string;
  /** Provider batches a search took for this submission and its results then refused (they answered other requests). */
  refused: string[];
}

interface BatchRow {
  id: string;
  run_id: string;
  provider: string;
  model_id: string;
  endpoint: string;
  state: BatchState;
  size: number;
  file_id: string | null;
  batch_id: string | null;
  submitted_at: string | null;
  reason: string | null;
  created_at: string;
  refused: string | null;
}

function toBatch(row: BatchRow): ProviderBatch {
  return {
    id: row.id,
    runId: row.run_id,
    provider: row.provider,
    modelId: row.model_id,
    endpoint: row.endpoint,
    state: row.state,
    size: row.size,
    fileId: row.file_id ?? undefined,
    batchId: row.batch_id ?? undefined,
    submittedAt: row.submitted_at ?? undefined,
    reason: row.reason ?? undefined,
    createdAt: row.created_at,
    refused: row.refused ? row.refused.split(' ') : [],
  };
}

/** The lifecycle of `medbench run --batch`'s provider batches, one row a submission. */
export class ProviderBatches extends StoreTable {
  /** A new submission of these requests (custom ids), nothing sent yet. */
  prepare(owner: BatchOwner, runId: string, customIds: readonly string[]): ProviderBatch {
    this.beforeWrite();
    const database = this.database();
    const id = `medbench-${randomUUID()}`;
    const now = new Date().toISOString();
    const insert = database.prepare(
      'INSERT INTO provider_batch_requests (batch, custom_id, outcome, error) VALUES (?, ?, NULL, NULL)',
    );
    database.transaction(() => {
      database
        .prepare(
          `INSERT INTO provider_batches (id, run_id, provider, model_id, endpoint, state, size, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, 'prepared', ?, ?, ?)`,
        )
        .run(id, runId, owner.provider, owner.modelId, owner.endpoint, customIds.length, now, now);
      for (const customId of customIds) insert.run(id, customId);
    })();
    return this.get(id)!;
  }

  get(id: string): ProviderBatch | undefined {
    const row = this.database().prepare('SELECT * FROM provider_batches WHERE id = ?').get(id) as
      | BatchRow
      | undefined;
    return row ? toBatch(row) : undefined;
  }

  /** The owner's batches not done or failed, oldest first: a run resumes them. */
  active(owner: BatchOwner): ProviderBatch[] {
    const rows = this.database()
      .prepare(
        `SELECT * FROM provider_batches WHERE provider = ? AND model_id = ? AND endpoint = ?
           AND state NOT IN ('done', 'failed') ORDER BY created_at, id`,
      )
      .all(owner.provider, owner.modelId, owner.endpoint) as BatchRow[];
    return rows.map(toBatch);
  }

  /** The provider ids of the owner's other submissions: a search for `id`'s batch never takes one. */
  claimedBy(owner: BatchOwner, id: string): string[] {
    return this.database()
      .prepare(
        `SELECT batch_id FROM provider_batches WHERE provider = ? AND model_id = ? AND endpoint = ?
           AND id != ? AND batch_id IS NOT NULL`,
      )
      .pluck()
      .all(owner.provider, owner.modelId, owner.endpoint, id) as string[];
  }

  /** The custom ids of a batch. */
  requests(id: string): string[] {
    return this.database()
      .prepare('SELECT custom_id FROM provider_batch_requests WHERE batch = ?')
      .pluck()
      .all(id) as string[];
  }

  /**
   * The next step of a batch, with what it learnt: a file id, a provider id, a reason, and the
   * submit time (the first is kept: a search for a batch a create may have made looks from there).
   */
  advance(
    id: string,
    state: BatchState,
    learnt: { fileId?: string; batchId?: string; submittedAt?: string; reason?: string } = {},
  ): ProviderBatch {
    this.beforeWrite();
    this.database()
      .prepare(
        `UPDATE provider_batches SET state = ?, file_id = COALESCE(?, file_id), batch_id = COALESCE(?, batch_id),
           submitted_at = COALESCE(submitted_at, ?), reason = COALESCE(?, reason), updated_at = ? WHERE id = ?`,
      )
      .run(
        state,
        learnt.fileId ?? null,
        learnt.batchId ?? null,
        learnt.submittedAt ?? null,
        learnt.reason ?? null,
        new Date().toISOString(),
        id,
      );
    return this.get(id)!;
  }

  /**
   * The batch a search took for this submission answered requests it does not hold: not its batch.
   * Back to `submitting` (its provider id forgotten, remembered as refused: no search takes it
   * again), so that the next step searches anew and creates the batch if none is found.
   */
  refuse(id: string, batchId: string, reason: string): ProviderBatch {
    this.beforeWrite();
    this.database()
      .prepare(
        `UPDATE provider_batches SET state = 'submitting', batch_id = NULL, reason = ?,
           refused = TRIM(COALESCE(refused, '') || ' ' || ?), updated_at = ? WHERE id = ?`,
      )
      .run(reason, batchId, new Date().toISOString(), id);
    return this.get(id)!;
  }

  /** How many of a batch's requests have an outcome recorded. */
  settledCount(id: string): number {
    return this.database()
      .prepare('SELECT COUNT(*) FROM provider_batch_requests WHERE batch = ? AND outcome IS NOT NULL')
      .pluck()
      .get(id) as number;
  }

  /** A batch never uploaded nor submitted, dropped (its requests are chosen again). */
  discard(id: string): void {
    this.beforeWrite();
    this.database().prepare("DELETE FROM provider_batches WHERE id = ? AND state = 'prepared'").run(id);
  }

  /**
   * Outcomes read from a finished batch, in one transaction: each answer into the response cache
   * (under the owner's provider and model) and marked answered; each failure marked with its error.
   * Reading the same results again writes the same rows.
   */
  settle(
    batch: ProviderBatch,
    outcomes: ReadonlyArray<
      { customId: string; response: CachedResponse } | { customId: string; error: string }
    >,
  ): void {
    if (outcomes.length === 0) return;
    this.beforeWrite();
    const database = this.database();
    const mark = database.prepare(
      'UPDATE provider_batch_requests SET outcome = ?, error = ? WHERE batch = ? AND custom_id = ?',
    );
    database.transaction(() => {
      for (const outcome of outcomes) {
        if ('response' in outcome) {
          this.putResponse({
            cacheKey: outcome.customId,
            provider: batch.provider,
            modelId: batch.modelId,
            response: outcome.response,
          });
          mark.run('answered', null, batch.id, outcome.customId);
        } else mark.run('failed', outcome.error, batch.id, outcome.customId);
      }
    })();
  }

  /** Requests of a batch its results did not name: failed, with this reason. */
  failUnsettled(id: string, error: string): void {
    this.beforeWrite();
    this.database()
      .prepare(
        "UPDATE provider_batch_requests SET outcome = 'failed', error = ? WHERE batch = ? AND outcome IS NULL",
      )
      .run(error, id);
  }

  /**
   * What the batches of one run made of its requests: the custom ids they answered (paid by that
   * run, at the batch price), and the last error of each that failed and was not answered since.
   */
  outcomesOfRun(runId: string): { answered: Set<string>; failed: Map<string, string> } {
    const rows = this.database()
      .prepare(
        `SELECT r.custom_id AS custom_id, r.outcome AS outcome, r.error AS error FROM provider_batch_requests r
           JOIN provider_batches b ON b.id = r.batch WHERE b.run_id = ? AND r.outcome IS NOT NULL
           ORDER BY b.created_at, b.id`,
      )
      .all(runId) as Array<{ custom_id: string; outcome: 'answered' | 'failed'; error: string | null }>;
    const answered = new Set<string>();
    const failed = new Map<string, string>();
    for (const row of rows) {
      if (row.outcome === 'answered') {
        answered.add(row.custom_id);
        failed.delete(row.custom_id);
      } else if (!answered.has(row.custom_id)) failed.set(row.custom_id, row.error ?? 'failed in its batch');
    }
    return { answered, failed };
  }
}

reportDamage(ProviderBatches.prototype, (batches) => batches.storePath());
