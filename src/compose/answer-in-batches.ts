import { type BatchClient, batchClientOf } from '../core/batch-client.js';
import type { ChatModel, ChatRequest } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import type { Sample } from '../core/sample.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { prefixOrder } from '../runner/prefix-order.js';
import { promptCacheHints } from '../runner/prompt-cache-hints.js';
import type { Store } from '../store/store.js';
import type { MedbenchConfig } from './config.js';
import { holdForBatches } from './model-hold.js';
import { type PendingRequest, pendingRequests } from './pending-requests.js';
import { checkRestrictedData, type DataRestriction } from './restricted-data.js';
import { type BatchPolling, DEFAULT_BATCH_POLLING, runBatches, tooFewRefusal } from './run-batches.js';
import { type RetryOptions, type RunHooks, retryPolicyFrom } from './run-model.js';

/** What a batched run needs of the plan's model work (`ModelWork`). */
interface BatchWork {
  model: ModelBinding;
  defaults: MedbenchConfig['defaults'];
  restricted?: DataRestriction;
}

/** The endpoint whose batch API takes the run, or a usage error saying why the run cannot be batched. */
export function batchEndpoint(
  work: BatchWork,
  request: RetryOptions & { redact?: boolean },
): { endpoint: ChatModel; client: BatchClient } {
  const { model } = work;
  const endpoint = model.endpoints[0]!.model;
  const client = batchClientOf(endpoint);
  const refuse = (message: string, hint: string) => new MedbenchError({ code: 'USAGE', message, hint });
  if (!client)
    throw refuse(
      `${model.label} (${model.provider}) has no batch API medbench can use: --batch works with openai, azure-openai, anthropic, gemini (the Gemini API, not Vertex AI) and bedrock (Claude models) models.`,
      'Leave out --batch, or name a model of one of those providers (docs/batch-mode.md).',
    );
  if (request.redact)
    throw refuse(
      '--batch takes the answers through the response cache, which --redact keeps no text in.',
      'Leave out one of --batch and --redact.',
    );
  if (request.maxCost !== undefined)
    throw refuse(
      '--max-cost stops before a request could pass the cap, one request at a time; a batch is submitted whole.',
      'Leave out --max-cost with --batch: `--batch --dry-run` tells what the batches would hold and cost at most.',
    );
  if (model.countTokens === 'endpoint')
    throw refuse(
      "--batch judges too_long by the model's tokenizer before it submits; --count-tokens endpoint would ask the server for every prompt.",
      'Leave out --count-tokens endpoint with --batch.',
    );
  return { endpoint, client };
}

/**
 * `run --batch` before the run: the requests the run's samples still need (none the response
 * cache answers), through the provider's batch API into the response cache. Then the run takes
 * every answer from the cache as usual; `model` answers the rest (requests their batch failed)
 * with that failure, sending nothing, and `batchAnswers` are the answers this run paid for.
 */
export async function answerInBatches(options: {
  store: Store;
  runId: string;
  work: BatchWork;
  samples: readonly Sample[];
  request: RetryOptions & { redact?: boolean; batchPollMs?: number };
  hooks: RunHooks;
}): Promise<{ stopped: boolean; model: ModelBinding; batchAnswers: Set<string> }> {
  const { endpoint, client } = batchEndpoint(options.work, options.request);
  // Nothing goes to a provider that may not receive the data, in a batch either.
  checkRestrictedData(options.work.model, options.work.restricted);
  // No other process chooses or submits this model's batches (nor sends its requests) meanwhile.
  const release = await holdForBatches(options.store, options.work.model, options.hooks);
  if (!release) return { stopped: true, model: options.work.model, batchAnswers: new Set() };
  try {
    return await answerHeld({ ...options, endpoint, client });
  } finally {
    release();
  }
}

/** `answerInBatches` once the model is held: what is left is chosen now (another process's answers are in the cache). */
async function answerHeld(
  options: Parameters<typeof answerInBatches>[0] & { endpoint: ChatModel; client: BatchClient },
): Promise<{ stopped: boolean; model: ModelBinding; batchAnswers: Set<string> }> {
  const { store, work, hooks, endpoint, client } = options;
  const finished = store.getRun(options.runId) ? store.finishedSampleIds(options.runId) : new Set<string>();
  // In the prefix order, with the hints a synchronous run sends: the provider's prompt cache
  // serves batch requests too (its discounts stack with the batch's).
  const left = prefixOrder(options.samples.filter((sample) => !finished.has(sample.id)));
  const hints = work.model.promptCache !== false ? promptCacheHints(left) : undefined;
  const { requests } = await pendingRequests(left, {
    model: work.model,
    endpoint,
    store,
    ...(hints ? { hints } : {}),
  });
  const outcome = await runBatches({
    store,
    runId: options.runId,
    model: work.model,
    endpoint,
    client,
    requests,
    retry: retryPolicyFrom(options.request, work.defaults),
    ...(options.request.batchPollMs !== undefined
      ? { polling: pollingUpTo(options.request.batchPollMs) }
      : {}),
    hooks,
  });
  if (outcome.stopped)
    hooks.onNotice?.(
      `Stopped waiting: ${outcome.open.length} ${outcome.open.length === 1 ? 'batch is' : 'batches are'} left at the provider (${outcome.open.map((batch) => batch.batchId ?? `${batch.id}, ${batch.state}`).join('; ')}). Re-run the same command to pick ${outcome.open.length === 1 ? 'it' : 'them'} up: nothing is submitted twice.`,
    );
  const { answered, failed } = store.providerBatches.outcomesOfRun(options.runId);
  const unsent = new Map(failed);
  for (const key of outcome.leftOut)
    unsent.set(
      key,
      `it was left out of the batches: fewer requests than the ${client.minRequests} a ${work.model.provider} batch takes were left beside the batches from before (run without --batch to send them at list price)`,
    );
  return {
    stopped: outcome.stopped,
    model: batchAnsweredBinding(work.model, endpoint, requests, unsent),
    batchAnswers: answered,
  };
}

/** What `run --batch --dry-run` adds: what would be submitted, and what open batches hold already. */
export async function batchDryRun(
  work: BatchWork,
  context: { store: Store; request: RetryOptions & { redact?: boolean }; samples: readonly Sample[] },
): Promise<string> {
  const { store } = context;
  const { endpoint, client } = batchEndpoint(work, context.request);
  const { requests, counts } = await pendingRequests(context.samples, { model: work.model, endpoint, store });
  const open = store.providerBatches.active({
    provider: work.model.provider,
    modelId: work.model.modelId,
    endpoint: endpoint.endpoint,
  });
  const held = new Set(open.flatMap((batch) => store.providerBatches.requests(batch.id)));
  const fresh = requests.filter((pending) => !held.has(pending.cacheKey)).length;
  const least = client.minRequests ?? 1;
  if (fresh > 0 && fresh < least && open.length === 0) throw tooFewRefusal(work.model, fresh, least);
  return [
    `--batch: ${fresh} requests would be submitted in new provider batches (answered at the batch price, within 24 hours)`,
    `${requests.length - fresh} are in ${open.length} ${open.length === 1 ? 'batch' : 'batches'} from before, which the run resumes`,
    `${counts.cached} samples are answered from the response cache and ${counts.shared} share another's request (neither enters a batch)${batchPriceNote(work.model)}.`,
  ].join('; ');
}

/** The dry run's costs are at list price: what a batch answer costs of them. */
function batchPriceNote(model: ModelBinding): string {
  const multiplier = model.prices?.batchMultiplier;
  return multiplier === undefined
    ? ''
    : `; the costs above are at list price, and a batch answer costs ${multiplier}× of them`;
}

/** Waits that double from the default first one (or `maxMs`, if shorter) up to `maxMs`. */
function pollingUpTo(maxMs: number): BatchPolling {
  return { initialMs: Math.min(DEFAULT_BATCH_POLLING.initialMs, maxMs), maxMs };
}

/** What identifies a request's conversation and settings, whichever object carries them. */
function requestIdentity(request: ChatRequest): string {
  return JSON.stringify([request.messages, request.parameters, request.truncatePromptTokens ?? null]);
}

/**
 * The binding with its batch endpoint in place of every endpoint, answering nothing itself: a
 * request the cache lacks gets its batch's failure (recorded as the sample's error; a re-run
 * submits it in a new batch).
 */
function batchAnsweredBinding(
  model: ModelBinding,
  endpoint: ChatModel,
  requests: readonly PendingRequest[],
  failed: ReadonlyMap<string, string>,
): ModelBinding {
  const failures = new Map(
    requests.flatMap((pending) => {
      const error = failed.get(pending.cacheKey);
      return error === undefined ? [] : [[requestIdentity(pending.request), error] as const];
    }),
  );
  const batchOnly: ChatModel = {
    provider: endpoint.provider,
    modelId: endpoint.modelId,
    endpoint: endpoint.endpoint,
    ...(endpoint.capabilities ? { capabilities: endpoint.capabilities } : {}),
    generate: async (request) => {
      throw new MedbenchError({
        code: 'BATCH_FAILED',
        message: `Not answered in its provider batch: ${failures.get(requestIdentity(request)) ?? 'the batch holding it did not finish'}.`,
        hint: 'Re-run the same command: the requests without an answer go into a new batch.',
      });
    },
  };
  return { ...model, endpoints: [{ ...model.endpoints[0]!, model: batchOnly }] };
}

/**
 * A run without `--batch` while batches of the same run are open at the provider would send their
 * requests again and pay for them twice: refused, saying how to take their answers or give them up.
 */
export function refuseOpenBatches(store: Store, runId: string, model: ModelBinding): void {
  const open = model.endpoints.flatMap(({ model: endpoint }) =>
    store.providerBatches
      .active({ provider: model.provider, modelId: model.modelId, endpoint: endpoint.endpoint })
      .filter((batch) => batch.runId === runId && batch.state !== 'prepared'),
  );
  if (open.length === 0) return;
  throw new MedbenchError({
    code: 'USAGE',
    message: `This run has ${open.length} provider ${open.length === 1 ? 'batch' : 'batches'} still open (${open.map((batch) => batch.batchId ?? batch.id).join(', ')}): without --batch its requests would be sent again and paid for twice.`,
    hint: 'Re-run with --batch to take their answers (nothing is submitted twice). To give them up, cancel them at the provider and run once with --batch: what they did not answer is submitted again.',
  });
}
