import type { BatchClient, BatchIdentity, BatchRequestLine, BatchResult } from '../core/batch-client.js';
import type { ChatModel } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import { cachedResponse } from '../runner/cached-response.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { type RetryPolicy, sleep } from '../runner/retry.js';
import type { BatchOwner, ProviderBatch } from '../store/provider-batches.js';
import type { CachedResponse, Store } from '../store/store.js';
import { batchChunks } from './batch-chunks.js';
import { redactKnownSecrets, shortReason } from './known-secrets.js';
import type { PendingRequest } from './pending-requests.js';
import type { RunHooks } from './run-model.js';

/** How often a running batch is asked for its state: from `initialMs`, doubling, at most `maxMs`. */
export interface BatchPolling {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BATCH_POLLING: BatchPolling = { initialMs: 5_000, maxMs: 60_000 };

/** A submission's step or the provider's answer to it. */
type Step = {
  batch: ProviderBatch;
  waiting?: string;
  /** The provider's last state, once the batch has ended (or failed): the progress line's last word. */
  ended?: string;
  counts?: { done: number; failed: number; total: number };
};

/**
 * `run --batch`'s lifecycle: every open batch of the model resumed (a prepared one never sent is
 * dropped and its requests chosen again), the pending requests no open batch holds submitted in
 * new ones, and each batch driven to its end: upload → create → poll (doubling waits, a progress
 * line) → results into the response cache. Each step is recorded before and after its remote
 * call; a call that may have created a batch is followed, after a kill or a failure, by a search
 * for it (`BatchClient.find`) before any second create. A stop ends the waits and leaves the
 * batches running remotely: the next run picks them up. Returns whether it was stopped and the
 * provider ids of the batches still open, and the requests left out of any batch (fewer than
 * the provider's least batch beside batches from before).
 */
export async function runBatches(options: {
  store: Store;
  runId: string;
  model: ModelBinding;
  endpoint: ChatModel;
  client: BatchClient;
  requests: readonly PendingRequest[];
  retry: RetryPolicy;
  polling?: BatchPolling;
  hooks: RunHooks;
}): Promise<{ stopped: boolean; open: ProviderBatch[]; leftOut: string[] }> {
  const { store, model, endpoint, client, hooks } = options;
  const batches = store.providerBatches;
  const owner: BatchOwner = { provider: model.provider, modelId: model.modelId, endpoint: endpoint.endpoint };
  const active = batches.active(owner);
  const open = active.filter((batch) => batch.state !== 'prepared');
  const resumed = open.length;
  const held = new Set(open.flatMap((batch) => batches.requests(batch.id)));
  const fresh = options.requests.filter((request) => !held.has(request.cacheKey));
  // Too few for the provider's least batch: refused before anything is stored, or, beside batches
  // from before, left out (their samples' error says why) for a run without --batch once those end.
  const tooFew = fresh.length > 0 && fresh.length < (client.minRequests ?? 1);
  if (tooFew && resumed === 0) throw tooFewRefusal(model, fresh.length, client.minRequests ?? 1);
  if (open.length > 0 || fresh.length > 0) await client.ready?.(hooks.abortSignal);
  for (const batch of active) if (batch.state === 'prepared') batches.discard(batch.id);
  const chunks = tooFew ? [] : batchChunks(fresh, client);
  for (const chunk of chunks) open.push(batches.prepare(owner, options.runId, chunk));
  const leftOut = tooFew ? fresh.map((request) => request.cacheKey) : [];
  if (open.length === 0) return { stopped: false, open: [], leftOut };
  const byKey = new Map(options.requests.map((request) => [request.cacheKey, request]));
  const lifecycle = new BatchLifecycle({ ...options, byKey });
  const created = open.length - resumed;
  hooks.onNotice?.(
    `Batch mode: ${tooFew ? `${fresh.length} requests left out (fewer than the ${client.minRequests} a ${model.provider} batch takes)` : `${fresh.length} requests in ${created} new ${created === 1 ? 'batch' : 'batches'}`}${resumed > 0 ? `; ${resumed} ${resumed === 1 ? 'batch' : 'batches'} from before resumed (${held.size} requests)` : ''}.`,
  );
  const ends = await Promise.all(open.map((batch) => lifecycle.drive(batch)));
  const left = ends.filter((batch) => batch.state !== 'done' && batch.state !== 'failed');
  return { stopped: left.length > 0, open: left, leftOut };
}

/** The refusal of a batched run whose pending requests are fewer than the provider's least batch. */
export function tooFewRefusal(model: ModelBinding, pending: number, least: number): MedbenchError {
  return new MedbenchError({
    code: 'USAGE',
    message: `--batch: ${pending} ${pending === 1 ? 'request is' : 'requests are'} left to send to ${model.label}, and a ${model.provider} batch holds at least ${least} (the provider's documented minimum): medbench submits no batch below it.`,
    hint: `Run without --batch to send ${pending === 1 ? 'it' : 'them'} one at a time at list price, or run more samples (at least ${least} requests) with --batch.`,
  });
}

/** One model's batches as they move through their steps. */
class BatchLifecycle {
  constructor(
    private readonly options: {
      store: Store;
      model: ModelBinding;
      client: BatchClient;
      byKey: ReadonlyMap<string, PendingRequest>;
      retry: RetryPolicy;
      polling?: BatchPolling;
      hooks: RunHooks;
    },
  ) {}

  /** Steps `batch` until it is done or failed, or the run is stopped: its last recorded state. */
  async drive(start: ProviderBatch): Promise<ProviderBatch> {
    const { hooks, retry } = this.options;
    const polling = this.options.polling ?? DEFAULT_BATCH_POLLING;
    let batch = start;
    let delay = polling.initialMs;
    let failures = 0;
    const began = Date.parse(batch.submittedAt ?? batch.createdAt);
    while (batch.state !== 'done' && batch.state !== 'failed') {
      if (hooks.stopSignal?.aborted) return batch;
      let wait = 0;
      try {
        const step = await this.step(batch);
        batch = step.batch;
        failures = 0;
        const shown = step.waiting ?? step.ended;
        if (shown !== undefined)
          hooks.onBatch?.({
            localId: batch.id,
            batchId: batch.batchId,
            state: shown,
            counts: step.counts ?? { done: 0, failed: 0, total: batch.size },
            elapsedMs: Date.now() - began,
          });
        if (step.waiting !== undefined) {
          wait = delay;
          delay = Math.min(delay * 2, polling.maxMs);
        }
      } catch (caught) {
        // A stop cancels calls in flight: the state recorded says where the next run goes on.
        if (hooks.abortSignal?.aborted || hooks.stopSignal?.aborted) return batch;
        if (!MedbenchError.is(caught) || !caught.retryable || ++failures > retry.maxRetries) throw caught;
        batch = this.options.store.providerBatches.get(batch.id)!;
        wait =
          caught.retryAfterMs !== undefined
            ? Math.min(caught.retryAfterMs, retry.maxRetryAfterMs)
            : Math.min(retry.baseDelayMs * 2 ** failures, retry.maxDelayMs);
      }
      if (wait > 0)
        try {
          await sleep(wait, hooks.stopSignal);
        } catch {
          return batch;
        }
    }
    return batch;
  }

  /** The next step of a batch, recorded before and after its remote call. */
  private async step(batch: ProviderBatch): Promise<Step> {
    const { client, store } = this.options;
    const batches = store.providerBatches;
    const signal = this.options.hooks.abortSignal;
    switch (batch.state) {
      case 'prepared': {
        const fileId = await client.upload?.(identity(batch), this.lines(batch), signal);
        // A provider without files carries the requests in the creating call.
        return fileId ? { batch: batches.advance(batch.id, 'uploaded', { fileId }) } : this.create(batch);
      }
      case 'uploaded':
        return this.create(batch);
      case 'submitting': {
        // The creating call may have reached the provider before the run died: look for its batch first.
        // Neither another submission's batch nor one this submission's results refused before.
        const claimed = [...batches.claimedBy(batch, batch.id), ...batch.refused];
        const customIds = new Set(batches.requests(batch.id));
        const found = await client.find({ ...identity(batch), claimed, customIds }, signal);
        if (found) return { batch: batches.advance(batch.id, 'submitted', { batchId: found }) };
        return this.create(batch);
      }
      case 'submitted': {
        const status = await this.gone(batch, () => client.status(batch.batchId!, signal));
        if (!status) return this.failGone(batch);
        if (status.phase === 'running') return { batch, waiting: status.state, counts: status.counts };
        if (status.phase === 'ended')
          return { batch: batches.advance(batch.id, 'ended'), ended: status.state, counts: status.counts };
        const reason = `the batch ${batch.batchId} ${status.state}${status.reason ? `: ${status.reason}` : ''}`;
        batches.failUnsettled(batch.id, reason);
        return {
          batch: batches.advance(batch.id, 'failed', { reason }),
          ended: status.state,
          counts: status.counts,
        };
      }
      case 'ended': {
        const read = await this.gone(batch, () => this.readResults(batch));
        return read ? { batch: read } : this.failGone(batch);
      }
      default:
        return { batch };
    }
  }

  /** A call about a batch the provider no longer has (404: deleted, or past its retention): undefined. */
  private async gone<T>(batch: ProviderBatch, call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (caught) {
      if (MedbenchError.is(caught) && caught.status === 404 && batch.batchId) return undefined;
      throw caught;
    }
  }

  /**
   * The provider answered 404 for the batch (deleted, or its results past their retention): the
   * submission fails, its requests without an answer read fail with the reason, and the next run
   * sends them again in a new batch; the answers read before stay in the response cache.
   */
  private failGone(batch: ProviderBatch): Step {
    const batches = this.options.store.providerBatches;
    const reason = `the batch ${batch.batchId} is gone at the provider (404: deleted, or past its results' retention); its requests without an answer are sent again by the next run`;
    batches.failUnsettled(batch.id, reason);
    return { batch: batches.advance(batch.id, 'failed', { reason }), ended: 'deleted' };
  }

  /** The paid step: recorded as `submitting` (with the time) before the call, `submitted` after. */
  private async create(batch: ProviderBatch): Promise<Step> {
    const batches = this.options.store.providerBatches;
    const submitting = batches.advance(batch.id, 'submitting', { submittedAt: new Date().toISOString() });
    const lines = submitting.fileId ? [] : this.lines(submitting);
    const batchId = await this.options.client.create(
      identity(submitting),
      lines,
      this.options.hooks.abortSignal,
    );
    return { batch: batches.advance(batch.id, 'submitted', { batchId }) };
  }

  /**
   * Every result into the response cache, a page a transaction (a kill keeps the pages read, and
   * the next run reads again from the first, rewriting the same rows), then `done`; a request the
   * results did not name is failed. A custom id the batch did not hold refuses the batch: it is
   * not this submission's.
   */
  private async readResults(batch: ProviderBatch): Promise<ProviderBatch> {
    const { client, store, hooks } = this.options;
    const batches = store.providerBatches;
    const held = new Set(batches.requests(batch.id));
    for await (const page of client.results(batch.batchId!, hooks.abortSignal)) {
      const stranger = page.find((result) => !held.has(result.customId));
      if (stranger) return this.refuse(batch, stranger.customId);
      batches.settle(
        batch,
        page.map((result) => this.outcome(result)),
      );
    }
    batches.failUnsettled(batch.id, `the batch ${batch.batchId} returned no result for it`);
    return batches.advance(batch.id, 'done');
  }

  /**
   * A batch whose results answer a request the submission did not hold is not its batch (a search
   * after a kill took another's of the same size): refused and remembered, the submission back to
   * `submitting`, which searches again and creates its batch if none is found. Were some of its
   * requests answered already (a results file of several pages), it fails instead: its other
   * requests are sent again by the next run, the answers kept.
   */
  private refuse(batch: ProviderBatch, customId: string): ProviderBatch {
    const batches = this.options.store.providerBatches;
    const reason = `the batch ${batch.batchId} answered custom_id ${customId}, which medbench's submission ${batch.id} did not hold: not that submission's batch`;
    this.options.hooks.onNotice?.(`Batch mode: ${reason}; passed over.`);
    if (batches.settledCount(batch.id) === 0) return batches.refuse(batch.id, batch.batchId!, reason);
    batches.failUnsettled(batch.id, reason);
    return batches.advance(batch.id, 'failed', { reason });
  }

  private outcome(
    result: BatchResult,
  ): { customId: string; response: CachedResponse } | { customId: string; error: string } {
    if ('error' in result) return { customId: result.customId, error: shortReason(result.error) };
    return {
      customId: result.customId,
      response: cachedResponse(result.response, {
        promptTokens: this.options.byKey.get(result.customId)?.promptTokens ?? null,
        model: this.options.model,
        scrubSecrets: redactKnownSecrets,
      }),
    };
  }

  /** A batch's requests as the provider takes them; every one must be among this run's pending requests. */
  private lines(batch: ProviderBatch): BatchRequestLine[] {
    return this.options.store.providerBatches.requests(batch.id).map((customId) => {
      const pending = this.options.byKey.get(customId);
      if (!pending)
        throw new MedbenchError({
          code: 'USAGE',
          message: `medbench's batch ${batch.id} holds a request this run does not make (${customId}); it was started by another command on this model.`,
          hint: 'Re-run the command that started it (the same dataset, --limit and settings) to finish it first.',
        });
      return { customId, request: pending.request };
    });
  }
}

function identity(batch: ProviderBatch): BatchIdentity {
  return {
    localId: batch.id,
    size: batch.size,
    ...(batch.fileId ? { fileId: batch.fileId } : {}),
    ...(batch.submittedAt ? { submittedAt: batch.submittedAt } : {}),
  };
}
