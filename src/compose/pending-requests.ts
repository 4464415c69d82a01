import type { ChatModel, ChatRequest, PromptCacheHint } from '../core/chat-model.js';
import type { Sample } from '../core/sample.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { responseCacheKey } from '../runner/response-cache-key.js';
import { type SampleRequest, sampleRequest } from '../runner/sample-request.js';
import type { Store } from '../store/store.js';

/** A request the run would send, by its response cache key on the endpoint. */
export interface PendingRequest {
  cacheKey: string;
  /** The prompt's tokens as the run counted them (null: no tokenizer). */
  promptTokens: number | null;
  request: ChatRequest;
}

/** What became of the samples looked at. */
export interface PendingCounts {
  /** Samples whose answer the response cache holds (the run takes it from there). */
  cached: number;
  /** Samples beyond the model's window: the run records them too_long without a request. */
  tooLong: number;
  /** Samples whose request another sample's carries (one answer serves both). */
  shared: number;
}

/**
 * The distinct requests `samples` need on `endpoint` (`export requests`' lines, `run --batch`'s
 * batches): too_long samples and those the response cache answers (on any endpoint of the
 * binding, as the run looks it up) are left out, and a request two samples share is listed once.
 */
export async function pendingRequests(
  samples: readonly Sample[],
  context: {
    model: ModelBinding;
    endpoint: ChatModel;
    store: Store;
    /** Each sample's prompt cache hint, sent with its request as a run sends it (`promptCacheHints`). */
    hints?: ReadonlyMap<Sample, PromptCacheHint>;
  },
): Promise<{ requests: PendingRequest[]; counts: PendingCounts }> {
  const { model, endpoint, store } = context;
  const counts: PendingCounts = { cached: 0, tooLong: 0, shared: 0 };
  const requests: PendingRequest[] = [];
  const seen = new Set<string>();
  for (const sample of samples) {
    const request = await sampleRequest(sample, endpoint, model);
    if (request.tooLong !== undefined) {
      counts.tooLong++;
      continue;
    }
    if (model.endpoints.some(({ model: other }) => store.getCachedResponse(cacheKeyOf(other, request)))) {
      counts.cached++;
      continue;
    }
    const cacheKey = cacheKeyOf(endpoint, request);
    if (seen.has(cacheKey)) {
      counts.shared++;
      continue;
    }
    seen.add(cacheKey);
    const hint = context.hints?.get(sample);
    requests.push({
      cacheKey,
      promptTokens: request.promptTokens,
      request: {
        messages: request.messages,
        parameters: request.parameters,
        ...(request.truncatePromptTokens !== undefined
          ? { truncatePromptTokens: request.truncatePromptTokens }
          : {}),
        ...(hint ? { promptCache: hint } : {}),
      },
    });
  }
  return { requests, counts };
}

/** The response cache key of a request on one endpoint, as the run computes it. */
export function cacheKeyOf(endpoint: ChatModel, request: SampleRequest): string {
  return responseCacheKey({
    provider: endpoint.provider,
    endpoint: endpoint.endpoint,
    modelId: endpoint.modelId,
    parameters: request.keyParameters,
    messagesDigest: request.digest,
  });
}
