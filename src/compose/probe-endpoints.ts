import { MedbenchError } from '../core/errors.js';
import type { ModelBinding } from '../runner/model-binding.js';

/**
 * Asks each endpoint that can tell (one free request, no sample text) whether its model is
 * there and how long a context it supports, before any sample is scheduled: a wrong model name,
 * deployment or key fails here with the setting named, and a window the model cannot hold is
 * refused rather than silently cut by the server.
 */
export async function probeEndpoints(
  model: ModelBinding,
  options: { signal?: AbortSignal | undefined; onNotice?: ((text: string) => void) | undefined } = {},
): Promise<void> {
  for (const { model: endpoint } of model.endpoints) {
    if (!endpoint.probe) continue;
    const facts = await endpoint.probe(options.signal);
    if (facts.notice) options.onNotice?.(facts.notice);
    const most = facts.maxContextTokens;
    if (most !== undefined && model.contextWindow !== undefined && model.contextWindow > most)
      throw new MedbenchError({
        code: 'USAGE',
        message: `${model.label}: a context window of ${model.contextWindow} tokens is longer than "${endpoint.modelId}" at ${endpoint.endpoint} supports (${most}).`,
        hint: `Give --context-window ${most} or less (or "contextWindow" in medbench.config.json).`,
      });
  }
}
