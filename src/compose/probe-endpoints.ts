import type { ChatModel } from '../core/chat-model.js';
import { isEndpointOutage, MedbenchError } from '../core/errors.js';
import type { ModelBinding } from '../runner/model-binding.js';

/** An endpoint that did not answer its check: unreachable, cut off, timed out, a server error. */
export interface EndpointDown {
  model: ChatModel;
  error: MedbenchError;
}

/**
 * Asks each endpoint that can tell (one free request, no sample text) whether its model is
 * there and how long a context it supports, before any sample is scheduled: a wrong model name,
 * deployment or key fails here with the setting named, and a window the model cannot hold is
 * refused rather than silently cut by the server. Those that are down (unreachable, reset, timed
 * out, a server error) are returned for the run to leave resting while the others serve. When
 * none can be reached (a model's only endpoint, or every one of several: refused, no such host, no
 * connection), the run stops at once with the first one's error: retries are for what fails during
 * a run. When some answered a server error, the run starts on those and its retries decide.
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
      if (!MedbenchError.is(error) || !isEndpointOutage(error)) throw error;
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
  if (down.length < model.endpoints.length) return down;
  // None answered its check. None reachable: the run cannot start. Some with a server error that may
  // pass (a server starting, a passing 503): the run starts on those and its retries decide (the
  // unreachable ones rest meanwhile; a model's only endpoint is not left resting).
  const unreachable = down.filter(({ error }) => error.code === 'ENDPOINT_UNREACHABLE');
  if (unreachable.length === down.length) throw atTheCheck(down[0]!.error);
  return down.length === 1 ? [] : unreachable;
}

/**
 * `probeEndpoints` for a run: when no endpoint can be reached, the check's error is returned rather
 * than thrown, for the run to fail with at its first request, at once and without retries; answers
 * the response cache holds (an engine's, imported) need no server.
 */
export async function checkBeforeRun(
  model: ModelBinding,
  options: Parameters<typeof probeEndpoints>[1],
): Promise<{ downAtStart: EndpointDown[]; unreachable?: MedbenchError }> {
  try {
    return { downAtStart: await probeEndpoints(model, options) };
  } catch (error) {
    if (!MedbenchError.is(error) || error.code !== 'ENDPOINT_UNREACHABLE') throw error;
    return { downAtStart: [], unreachable: error };
  }
}

/** An endpoint's error at the check before the run, saying so. */
function atTheCheck(error: MedbenchError): MedbenchError {
  return new MedbenchError({
    code: error.code,
    message: `${error.message.replace(/\.$/, '')} at the check before the run: no sample was sent.`,
    ...(error.hint ? { hint: error.hint } : {}),
    cause: error,
  });
}
