import { z } from 'zod';
import {
  anthropicError,
  createMessage,
  type MessagesContext,
  minimumCacheableTokens,
} from './anthropic-messages.js';
import { BatchEngine, type BatchJob, ENDED, type LineResult, rfc3339 } from './batch-engine.js';
import { DEFAULT_PRICES } from './billing-ledger.js';
import { type Exchange, listen, newId, parseJson, sendJson, sendText } from './platform-basics.js';
import type { Platform, PlatformBaseOptions, PlatformSetup } from './platform-setup.js';
import { firstIssue, platformSetup } from './platform-setup.js';
import { BreakpointCache } from './prefix-cache.js';

export interface AnthropicPlatformOptions extends PlatformBaseOptions {
  /** The minimum cacheable prompt length per model (default: the prompt-caching guide's table). */
  minimumCacheableTokens?: (model: string) => number;
  /** The model ids the Models API knows (default: every id starting `claude-`, listed as DEFAULT_MODELS). */
  models?: readonly string[];
}

/** What GET /v1/models lists by default (any `claude-` id is known to GET /v1/models/{id}). */
export const DEFAULT_MODELS = ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'];

export type AnthropicPlatform = Platform;

/** Documented limits of one Message Batch. */
export const MESSAGE_BATCH_LIMITS = { requests: 100_000, bytes: 256 * 1024 * 1024 };

const createSchema = z.object({
  requests: z
    .array(
      z.object({
        custom_id: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
        params: z.record(z.string(), z.unknown()),
      }),
    )
    .min(1)
    .max(MESSAGE_BATCH_LIMITS.requests),
});

const DAY_MS = 24 * 3_600_000;

interface State extends AnthropicPlatform, PlatformSetup {
  messages: MessagesContext;
  models: readonly string[] | undefined;
}

/**
 * A local stand-in for Anthropic's API: /v1/messages with prompt caching (cache_control breakpoints,
 * at most 4, the per-model minimum, 5-minute or 1-hour lifetime refreshed on a hit, reads through
 * the 20-block lookback) and usage reporting; the Message Batches API (create, retrieve, list,
 * cancel, results as JSONL), whose requests read the same cache; a billing ledger.
 */
export async function startAnthropicPlatform(
  options: AnthropicPlatformOptions = {},
): Promise<AnthropicPlatform> {
  const setup = platformSetup(options, DEFAULT_PRICES.anthropic);
  const messages: MessagesContext = {
    ...setup,
    cache: new BreakpointCache(setup.clock, setup.countTokens),
    minimumTokens: options.minimumCacheableTokens ?? minimumCacheableTokens,
  };
  const batches = new BatchEngine({
    ...setup,
    answer: (line): LineResult => {
      const { status, body } = createMessage(messages, line.body, { mode: 'batch', customId: line.customId });
      return { customId: line.customId, outcome: status === 200 ? 'succeeded' : 'errored', status, body };
    },
    unprocessed: (line, why) => ({ customId: line.customId, outcome: why, status: 0, body: null }),
  });
  const server = await listen((exchange) => route(state, exchange));
  const state: State = {
    ...setup,
    ...server,
    messages,
    batches,
    models: options.models,
    cutNextDownload: false,
  };
  return state;
}

function fail(exchange: Exchange, status: number, message?: string) {
  sendJson(exchange.response, status, anthropicError(status, message));
}

function route(state: State, exchange: Exchange) {
  if (!exchange.headers['x-api-key']) return fail(exchange, 401, 'x-api-key header is required');
  if (!exchange.headers['anthropic-version'])
    return fail(exchange, 400, 'anthropic-version: header is required');
  const key = `${exchange.method} ${exchange.url.pathname}`;
  if (key === 'POST /v1/messages') return syncMessage(state, exchange);
  if (key === 'POST /v1/messages/batches') return createBatch(state, exchange);
  if (key === 'GET /v1/messages/batches') return listBatches(state, exchange);
  if (key === 'GET /v1/models') return listModels(state, exchange);
  const model = /^GET \/v1\/models\/([^/]+)$/.exec(key)?.[1];
  if (model !== undefined) return getModel(state, exchange, decodeURIComponent(model));
  const batch = /^(GET|POST|DELETE) \/v1\/messages\/batches\/([^/]+)(\/cancel|\/results)?$/.exec(key);
  if (batch?.[1] === 'DELETE' && batch[3] === undefined) return deleteBatch(state, exchange, batch[2]!);
  if (batch?.[1] === 'GET' && batch[3] === undefined)
    return retrieve(state, exchange, state.batches.poll(batch[2]!));
  if (batch?.[1] === 'POST' && batch[3] === '/cancel')
    return retrieve(state, exchange, state.batches.cancel(batch[2]!));
  if (batch?.[1] === 'GET' && batch[3] === '/results') return results(state, exchange, batch[2]!);
  fail(exchange, 404);
}

/** The Models API's object for a model id. */
function modelObject(id: string) {
  return { type: 'model', id, display_name: id, created_at: '2025-09-29T00:00:00Z' };
}

/** GET /v1/models/{model_id}: a known id (or alias), else 404 not_found_error. */
function getModel(state: State, exchange: Exchange, id: string) {
  const known = state.models ? state.models.includes(id) : id.startsWith('claude-');
  if (!known) return fail(exchange, 404, `model: ${id}`);
  sendJson(exchange.response, 200, modelObject(id));
}

/** GET /v1/models: one page of every known model, newest first. */
function listModels(state: State, exchange: Exchange) {
  const data = (state.models ?? DEFAULT_MODELS).map(modelObject);
  sendJson(exchange.response, 200, {
    data,
    has_more: false,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
  });
}

function syncMessage(state: State, exchange: Exchange) {
  const body = parseJson(exchange.raw);
  if (body === undefined) return fail(exchange, 400, 'The request body is not valid JSON.');
  state.received.syncRequests += 1;
  const answer = createMessage(state.messages, body, { mode: 'sync' });
  sendJson(exchange.response, answer.status, answer.body);
}

function createBatch(state: State, exchange: Exchange) {
  if (exchange.raw.length > MESSAGE_BATCH_LIMITS.bytes) return fail(exchange, 413);
  const parsed = createSchema.safeParse(parseJson(exchange.raw));
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    return fail(exchange, 400, `${issue.path}: ${issue.message}`);
  }
  const seen = new Set<string>();
  for (const request of parsed.data.requests) {
    if (seen.has(request.custom_id))
      return fail(
        exchange,
        400,
        `Duplicate custom_id ${request.custom_id}: custom_id must be unique within a batch.`,
      );
    seen.add(request.custom_id);
  }
  const lines = parsed.data.requests.map((request) => ({
    customId: request.custom_id,
    body: request.params,
  }));
  const job = state.batches.create(newId('msgbatch_'), lines, {}, 'in_progress');
  sendJson(exchange.response, 200, batchObject(state, job));
}

/** Only a batch that has ended may be deleted (a running one must be canceled first). */
function deleteBatch(state: State, exchange: Exchange, id: string) {
  const job = state.batches.jobs.get(id);
  if (!job) return fail(exchange, 404);
  if (!ENDED.includes(job.phase))
    return fail(exchange, 400, `Message Batch ${id} is still processing; cancel it before deleting it.`);
  state.batches.jobs.delete(id);
  sendJson(exchange.response, 200, { id, type: 'message_batch_deleted' });
}

function retrieve(state: State, exchange: Exchange, job: BatchJob | undefined) {
  if (!job) return fail(exchange, 404);
  sendJson(exchange.response, 200, batchObject(state, job));
}

function listBatches(state: State, exchange: Exchange) {
  const all = [...state.batches.jobs.values()].reverse();
  const query = exchange.url.searchParams;
  const limit = Number(query.get('limit') ?? 20);
  const after = query.get('after_id');
  const before = query.get('before_id');
  let from = after === null ? 0 : all.findIndex((job) => job.id === after) + 1;
  if (before !== null) from = Math.max(0, all.findIndex((job) => job.id === before) - limit);
  const page = all.slice(from, from + limit);
  sendJson(exchange.response, 200, {
    data: page.map((job) => batchObject(state, job)),
    has_more: from + limit < all.length,
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null,
  });
}

/** Results as JSONL, one line per request: succeeded (message), errored (error), canceled, expired. */
function results(state: State, exchange: Exchange, id: string) {
  const job = state.batches.jobs.get(id);
  if (!job) return fail(exchange, 404);
  if (!ENDED.includes(job.phase))
    return fail(exchange, 400, `Message Batch ${id} has not yet ended processing.`);
  state.received.resultDownloads += 1;
  const lines = [...job.results.values()].map((result) => {
    const shaped =
      result.outcome === 'succeeded'
        ? { type: 'succeeded', message: result.body }
        : result.outcome === 'errored'
          ? { type: 'errored', error: { type: 'error', error: (result.body as { error: unknown }).error } }
          : { type: result.outcome };
    return `${JSON.stringify({ custom_id: result.customId, result: shaped })}\n`;
  });
  const cut = state.cutNextDownload;
  state.cutNextDownload = false;
  sendText(exchange, lines.join(''), 'application/binary', cut);
}

function processingStatus(job: BatchJob): 'in_progress' | 'canceling' | 'ended' {
  if (ENDED.includes(job.phase)) return 'ended';
  return job.phase === 'cancelling' ? 'canceling' : 'in_progress';
}

function batchObject(state: State, job: BatchJob) {
  const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
  for (const result of job.results.values()) counts[result.outcome] += 1;
  counts.processing = ENDED.includes(job.phase) ? 0 : job.lines.length - job.results.size;
  const ended = ENDED.includes(job.phase);
  const endedAt = job.at.completed ?? job.at.cancelled ?? job.at.expired ?? job.at.failed;
  return {
    id: job.id,
    type: 'message_batch',
    processing_status: processingStatus(job),
    request_counts: counts,
    ended_at: ended ? rfc3339(endedAt) : null,
    created_at: rfc3339(job.at.created),
    expires_at: rfc3339(job.at.created! + DAY_MS),
    archived_at: null,
    cancel_initiated_at: rfc3339(job.at.cancelling),
    results_url: ended ? `${state.url}/v1/messages/batches/${job.id}/results` : null,
  };
}
