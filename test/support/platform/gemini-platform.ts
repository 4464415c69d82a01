import { z } from 'zod';
import { BatchEngine, type BatchJob, ENDED, type Phase, rfc3339 } from './batch-engine.js';
import { DEFAULT_PRICES } from './billing-ledger.js';
import { billStorage, createCache, manageCache } from './gemini-caches.js';
import {
  cachesImplicitly,
  type ExplicitCache,
  type GeminiContext,
  geminiError,
  generateContent,
  minimumCachingTokens,
} from './gemini-content.js';
import { type Exchange, listen, newId, parseJson, sendJson, sendText } from './platform-basics.js';
import type { Platform, PlatformBaseOptions, PlatformSetup } from './platform-setup.js';
import { firstIssue, platformSetup } from './platform-setup.js';
import { AutomaticPrefixCache } from './prefix-cache.js';

export interface GeminiPlatformOptions extends PlatformBaseOptions {
  /** Minimum tokens for implicit and explicit caching per model (default: the caching guide's table). */
  minimumCachingTokens?: (model: string) => number;
  /** How long an unused implicit-cache prefix lives (not documented; default 5 minutes). */
  implicitLifetimeMs?: number;
}

export interface GeminiPlatform extends Platform {
  explicitCaches: Map<string, ExplicitCache>;
  /** Bills every live explicit cache's storage up to now (call before reading the ledger). */
  settleStorage(): void;
}

/** Documented limit of a batch's inlined requests. */
export const INLINE_BATCH_BYTES = 20 * 1024 * 1024;

const inlinedRequestSchema = z.object({
  request: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
const createSchema = z.object({
  batch: z.looseObject({
    displayName: z.string().optional(),
    display_name: z.string().optional(),
    inputConfig: z
      .object({ requests: z.object({ requests: z.array(inlinedRequestSchema).min(1) }) })
      .optional(),
    input_config: z
      .object({ requests: z.object({ requests: z.array(inlinedRequestSchema).min(1) }) })
      .optional(),
  }),
});

const STATES: Record<Phase, string> = {
  validating: 'BATCH_STATE_PENDING',
  in_progress: 'BATCH_STATE_RUNNING',
  finalizing: 'BATCH_STATE_RUNNING',
  cancelling: 'BATCH_STATE_RUNNING',
  completed: 'BATCH_STATE_SUCCEEDED',
  failed: 'BATCH_STATE_FAILED',
  cancelled: 'BATCH_STATE_CANCELLED',
  expired: 'BATCH_STATE_EXPIRED',
};

interface State extends GeminiPlatform, PlatformSetup {
  gemini: GeminiContext;
  minimum: (model: string) => number;
}

/**
 * A local stand-in for the Gemini API: generateContent with implicit caching (prefixes of at least
 * the model's minimum, reported in usageMetadata.cachedContentTokenCount) and explicit caching
 * (cachedContents create/get/list/patch/delete, ttl, storage billed by the hour); Batch Mode with
 * inlined requests as a long-running operation (batches get/list/cancel/delete), results inline in
 * request order, read under the same cache rules; a billing ledger.
 */
export async function startGeminiPlatform(options: GeminiPlatformOptions = {}): Promise<GeminiPlatform> {
  const setup = platformSetup(options, DEFAULT_PRICES.gemini);
  const minimum = options.minimumCachingTokens ?? minimumCachingTokens;
  const gemini: GeminiContext = {
    ...setup,
    explicit: new Map(),
    implicit: implicitPerModel(setup, minimum, options.implicitLifetimeMs ?? 5 * 60_000),
  };
  const batches = new BatchEngine({
    ...setup,
    // Batch Mode: a batch still pending or running after 48 hours expires.
    windowMs: 48 * 3_600_000,
    answer: (line, job) => {
      const { status, body } = generateContent(gemini, String(job.extra.model), line.body, {
        mode: 'batch',
        customId: line.customId,
      });
      return { customId: line.customId, outcome: status === 200 ? 'succeeded' : 'errored', status, body };
    },
    unprocessed: (line, why) => ({
      customId: line.customId,
      outcome: why,
      status: 0,
      body:
        why === 'canceled' ? { code: 1, message: 'CANCELLED' } : { code: 4, message: 'DEADLINE_EXCEEDED' },
    }),
  });
  const server = await listen((exchange) => route(state, exchange));
  const state: State = {
    ...setup,
    ...server,
    gemini,
    minimum,
    batches,
    explicitCaches: gemini.explicit,
    cutNextDownload: false,
    settleStorage: () => {
      for (const cache of gemini.explicit.values())
        if (!cache.deleted) billStorage(gemini, cache, setup.clock.now());
    },
  };
  return state;
}

/** The implicit cache applies each model's own minimum. */
function implicitPerModel(
  context: PlatformSetup,
  minimum: (model: string) => number,
  lifetimeMs: number,
): GeminiContext['implicit'] {
  const caches = new Map<string, AutomaticPrefixCache>();
  return {
    read(model, text, promptTokens) {
      if (!cachesImplicitly(model)) return 0;
      if (!caches.has(model))
        caches.set(
          model,
          new AutomaticPrefixCache(
            { minimumTokens: minimum(model), increment: 1, lifetimeMs },
            context.clock,
            context.countTokens,
          ),
        );
      return caches.get(model)!.read(model, text, promptTokens);
    },
  };
}

function send(exchange: Exchange, answered: { status: number; body: unknown }) {
  sendJson(exchange.response, answered.status, answered.body);
}

function route(state: State, exchange: Exchange) {
  if (!exchange.headers['x-goog-api-key'] && !exchange.url.searchParams.has('key'))
    return send(exchange, {
      status: 403,
      body: geminiError(403, "Method doesn't allow unregistered callers."),
    });
  const key = `${exchange.method} ${exchange.url.pathname}`;
  const body = parseJson(exchange.raw);
  if (body === undefined)
    return send(exchange, { status: 400, body: geminiError(400, 'Invalid JSON payload received.') });
  const model = /^POST \/v1beta\/models\/([^/:]+):(generateContent|batchGenerateContent)$/.exec(key);
  if (model?.[2] === 'generateContent') {
    state.received.syncRequests += 1;
    return send(exchange, generateContent(state.gemini, model[1]!, body, { mode: 'sync' }));
  }
  if (model) return createBatch(state, exchange, model[1]!, body);
  const batch = /^(GET|POST|DELETE) \/v1beta\/(batches\/[^/:]+)(:cancel)?$/.exec(key);
  if (batch) return batchById(state, exchange, batch[1]!, batch[2]!, batch[3] !== undefined);
  if (key === 'GET /v1beta/batches') return listBatches(state, exchange);
  if (key === 'POST /v1beta/cachedContents')
    return send(exchange, createCache(state.gemini, body, state.minimum));
  if (key === 'GET /v1beta/cachedContents')
    return send(exchange, { status: 200, body: { cachedContents: liveCaches(state) } });
  const cache = /^(GET|PATCH|DELETE) \/v1beta\/(cachedContents\/[^/]+)$/.exec(key);
  if (cache) return send(exchange, manageCache(state.gemini, cache[1]!, cache[2]!, body));
  send(exchange, { status: 404, body: geminiError(404) });
}

function liveCaches(state: State) {
  const now = state.clock.now();
  return [...state.gemini.explicit.values()]
    .filter((cache) => !cache.deleted && cache.expiresAt > now)
    .map((cache) => ({ name: cache.name, model: cache.model, expireTime: rfc3339(cache.expiresAt) }));
}

function createBatch(state: State, exchange: Exchange, model: string, body: unknown) {
  if (exchange.raw.length > INLINE_BATCH_BYTES)
    return send(exchange, {
      status: 400,
      body: geminiError(400, 'Inlined requests exceed the 20 MB limit; use an input file.'),
    });
  const parsed = createSchema.safeParse(body);
  const batch = parsed.data?.batch;
  const requests = (batch?.inputConfig ?? batch?.input_config)?.requests.requests;
  const displayName = batch?.displayName ?? batch?.display_name;
  if (!parsed.success || !requests || displayName === undefined) {
    const problem = parsed.success
      ? { path: 'batch', message: 'displayName and inputConfig.requests are required' }
      : firstIssue(parsed.error);
    return send(exchange, { status: 400, body: geminiError(400, `${problem.path}: ${problem.message}`) });
  }
  const lines = requests.map((entry, index) => ({
    customId: typeof entry.metadata?.key === 'string' ? entry.metadata.key : `request-${index + 1}`,
    body: entry.request,
  }));
  const job = state.batches.create(
    `batches/${newId('')}`,
    lines,
    { model, displayName, requests },
    'validating',
  );
  send(exchange, { status: 200, body: operation(job) });
}

function batchById(state: State, exchange: Exchange, method: string, name: string, cancel: boolean) {
  if (method === 'POST' && !cancel) return send(exchange, { status: 404, body: geminiError(404) });
  const job = cancel ? state.batches.cancel(name) : state.batches.jobs.get(name);
  if (!job) return send(exchange, { status: 404, body: geminiError(404) });
  if (method === 'DELETE') {
    state.batches.jobs.delete(name);
    return send(exchange, { status: 200, body: {} });
  }
  if (cancel) return send(exchange, { status: 200, body: {} });
  state.batches.poll(name);
  if (!ENDED.includes(job.phase)) return send(exchange, { status: 200, body: operation(job) });
  // The finished operation carries the results: the download the test may cut.
  state.received.resultDownloads += 1;
  const cut = state.cutNextDownload;
  state.cutNextDownload = false;
  sendText(exchange, JSON.stringify(operation(job)), 'application/json', cut);
}

function listBatches(state: State, exchange: Exchange) {
  const all = [...state.batches.jobs.values()].reverse();
  const size = Number(exchange.url.searchParams.get('pageSize') ?? 50);
  const from = Number(exchange.url.searchParams.get('pageToken') ?? 0);
  const page = all.slice(from, from + size);
  send(exchange, {
    status: 200,
    body: {
      operations: page.map((job) => operation(job)),
      ...(from + size < all.length ? { nextPageToken: String(from + size) } : {}),
    },
  });
}

/** The batch as the long-running operation batches.get returns. */
function operation(job: BatchJob) {
  const ended = ENDED.includes(job.phase);
  const requests = job.extra.requests as Array<{ metadata?: Record<string, unknown> }>;
  const inlinedResponses = job.lines.map((line, index) => {
    const result = job.results.get(line.customId);
    const metadata = requests[index]?.metadata ? { metadata: requests[index]!.metadata } : {};
    if (result?.status === 200) return { ...metadata, response: result.body };
    return { ...metadata, error: result?.status ? (result.body as { error: unknown }).error : result?.body };
  });
  const results = [...job.results.values()];
  const succeeded = results.filter((result) => result.status === 200).length;
  const output = { inlinedResponses: { inlinedResponses } };
  const resource = {
    '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatch',
    model: `models/${String(job.extra.model)}`,
    name: job.id,
    displayName: job.extra.displayName,
    createTime: rfc3339(job.at.created),
    updateTime: rfc3339(Math.max(...Object.values(job.at))),
    ...(ended ? { endTime: rfc3339(Math.max(...Object.values(job.at))), output } : {}),
    batchStats: {
      requestCount: String(job.lines.length),
      successfulRequestCount: String(succeeded),
      failedRequestCount: String(results.length - succeeded),
      pendingRequestCount: String(job.lines.length - results.length),
    },
    state: STATES[job.phase],
  };
  const error = {
    failed: { code: 13, message: 'The batch failed.' },
    cancelled: { code: 1, message: 'CANCELLED' },
  }[job.phase as 'failed' | 'cancelled'];
  return {
    name: job.id,
    metadata: resource,
    done: ended,
    ...(error ? { error } : {}),
    ...(job.phase === 'completed' || job.phase === 'expired'
      ? {
          response: {
            '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatchOutput',
            ...output,
          },
        }
      : {}),
  };
}
