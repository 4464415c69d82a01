import type { ChatMessage, ChatModel } from '../core/chat-model.js';
import type { Sample } from '../core/sample.js';
import { countTokensYielding } from '../tokenizers/count-tokens-yielding.js';
import type { ModelBinding } from './model-binding.js';
import { conversationOf } from './prefix-order.js';
import { messagesDigest } from './response-cache-key.js';

/** One sample as a request to one endpoint: what is sent, and what identifies it in the cache. */
export interface SampleRequest {
  messages: ChatMessage[];
  /** Prompt tokens by the model's tokenizer (null: no tokenizer known). */
  promptTokens: number | null;
  /** The model's generation parameters with the sample's own limits. */
  parameters: ModelBinding['parameters'];
  /** Server-side truncation, when the sample asks for it and the endpoint does it. */
  truncatePromptTokens: number | undefined;
  /** What the cache key covers: the parameters, with the truncation when there is one. */
  keyParameters: unknown;
  digest: string;
  /** Why the sample cannot be sent (its prompt exceeds the window), if so. */
  tooLong: string | undefined;
}

/**
 * The prompt's tokens: the endpoint's own count (`--count-tokens endpoint`), else by the model's
 * tokenizer (or the fallback estimate), the build's count when it made one.
 */
async function promptTokensOf(
  sample: Sample,
  messages: ChatMessage[],
  model: ModelBinding,
  countOnEndpoint: ((messages: ChatMessage[]) => Promise<number>) | undefined,
) {
  if (model.countTokens === 'endpoint' && countOnEndpoint) return countOnEndpoint(messages);
  const tokenizer = model.tokenizer ?? model.fallbackTokenizer;
  if (!tokenizer) return null;
  const built = sample.promptTokens[tokenizer.name];
  if (built !== undefined) return built;
  let count = 0;
  for (const message of messages) count += await countTokensYielding(tokenizer, message.content);
  return count;
}

export async function sampleRequest(
  sample: Sample,
  endpoint: ChatModel,
  model: ModelBinding,
  /** The endpoint's count-tokens route, retried as requests are (`--count-tokens endpoint`). */
  countOnEndpoint?: (messages: ChatMessage[]) => Promise<number>,
): Promise<SampleRequest> {
  // The conversation the prefix order sorts (and the prompt cache hints cut): one definition.
  const messages = conversationOf(sample) as ChatMessage[];
  const promptTokens = await promptTokensOf(sample, messages, model, countOnEndpoint);
  const protocolStop = sample.generation?.stop;
  const parameters = {
    ...model.parameters,
    ...(sample.generation?.maxOutputTokens !== undefined
      ? { maxOutputTokens: sample.generation.maxOutputTokens }
      : {}),
    // The protocol's stop sequences join the model's own.
    ...(protocolStop ? { stop: [...new Set([...(model.parameters.stop ?? []), ...protocolStop])] } : {}),
    // An epoch after the first (`run --epochs`): its own seed, where the provider takes one.
    ...(sample.epoch?.seed !== undefined ? { seed: sample.epoch.seed } : {}),
  };
  // A sample that asks for server-side truncation, on an endpoint that does it, is sent as it is.
  const truncatePromptTokens =
    sample.generation?.truncatePromptTokens !== undefined && endpoint.capabilities?.truncatePrompt
      ? sample.generation.truncatePromptTokens
      : undefined;
  const tooLong =
    truncatePromptTokens === undefined &&
    model.contextWindow !== undefined &&
    promptTokens !== null &&
    promptTokens > model.contextWindow
      ? `prompt has ${promptTokens} ${tokensCountedBy(model)} tokens; the window is ${model.contextWindow}`
      : undefined;
  return {
    messages,
    promptTokens,
    parameters,
    truncatePromptTokens,
    keyParameters: keyParametersOf(parameters, truncatePromptTokens, sample.epoch?.index),
    // Not sent, not cached: a too_long prompt is not hashed.
    digest: tooLong === undefined ? messagesDigest(messages) : '',
    tooLong,
  };
}

/**
 * What the cache key covers of the parameters: the truncation when there is one, and the epoch
 * after the first (`run --epochs`: another answer to the same prompt is another request, also
 * without a seed); epoch 1's key is that of a run without epochs.
 */
export function keyParametersOf(
  parameters: ModelBinding['parameters'],
  truncatePromptTokens: number | undefined,
  epoch: number | undefined,
): unknown {
  return {
    ...parameters,
    ...(truncatePromptTokens !== undefined ? { truncatePromptTokens } : {}),
    ...(epoch !== undefined && epoch > 1 ? { epoch } : {}),
  };
}

/** Whose tokens a count is, for too_long messages. */
function tokensCountedBy(model: ModelBinding): string {
  if (model.countTokens === 'endpoint') return 'endpoint-counted';
  if (model.tokenizer) return model.tokenizer.name;
  return `${model.fallbackTokenizer?.name} (estimated)`;
}
