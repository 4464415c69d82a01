import type { ChatResponse } from '../core/chat-model.js';
import { type CachedResponse, reportedCounts } from '../store/store.js';
import type { ModelBinding } from './model-binding.js';

/**
 * An answer as the response cache keeps it: its text with any echoed key taken out, the
 * provider's token counts, or (without them) the run's count of the prompt and the tokenizer's
 * of the answer and its thinking.
 */
export function cachedResponse(
  answer: ChatResponse,
  context: { promptTokens: number | null; model: ModelBinding; scrubSecrets: (text: string) => string },
): CachedResponse {
  const { usage, reasoning } = answer;
  // A server may echo a key in its answer: taken out before it is scored, cached or stored.
  const text = context.scrubSecrets(answer.text);
  return {
    text,
    inputTokens: usage?.inputTokens ?? context.promptTokens,
    outputTokens: usage?.outputTokens ?? context.model.tokenizer?.count(text + (reasoning ?? '')) ?? null,
    ...reportedCounts(usage),
    finishReason: answer.finishReason === undefined ? null : context.scrubSecrets(answer.finishReason),
  };
}
