import type { ChatModel } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import type { ModelBinding } from '../runner/model-binding.js';

/** An endpoint that did not answer its check: unreachable, cut off, timed out, a server error. */
export interface EndpointDown {
  model: ChatModel;
  error: MedbenchError;
}

/** A failure of the endpoint's service, not of the settings (those are errors even with others up). */
function isOutage(error: unknown): error is MedbenchError {
  return (
    MedbenchError.is(error) &&
    error.code !== 'ENDPOINT_AUTH' &&
    error.code !== 'ABORTED' &&
    (error.retryable || error.code === 'ENDPOINT_UNREACHABLE')
  );
}

/**
 * Asks each endpoint that can tell (one free request, no sample text) whether its model is
 * there and how long a context it supports, before any sample is scheduled: a wrong model name,
 * deployment or key fails here with the setting named, and a window the model cannot hold is
 * refused rather than silently cut by the server. With several endpoints, those that are down
 * (unreachable, a server error) are returned for the run to leave resting while the others
 * serve; when every one is down, the first one's error stops the run.
 */
export async function probeEndpoints(
  model: ModelBinding,
  options: { signal?: AbortSignal | undefined; onNotice?: ((text: string) => void) | undefined } = {},
): Promise<EndpointDown[]> {
  const down: EndpointDown[] = [];
  for (const { model: endpoint } of model.endpoints) {
    if (!endpoint.probe) continue;
    let facts: Awaited<ReturnType<NonNullable<ChatModel['probe']>>>;
    try {
      facts = await endpoint.probe(options.signal);
    } catch (error) {
      if (model.endpoints.length < 2 || !isOutage(error)) throw error;
      down.push({ model: endpoint, error });
      continue;
    }
    if (facts.notice) options.onNotice?.(facts.notice);
    const most = facts.maxContextTokens;
    if (most !== undefined && model.contextWindow !== undefined && model.contextWindow > most)
      throw new MedbenchError({
        code: 'USAGE',
        message: `${model.label}: a context window of ${model.contextWindow} tokens is longer than "${endpoint.modelId}" at ${endpoint.endpoint} supports (${most}).`,
        hint: `Give --context-window ${most} or less (or "contextWindow" in medbench.config.json).`,
      });
  }
  if (down.length > 0 && down.length === model.endpoints.length) throw down[0]!.error;
  return down;
}
