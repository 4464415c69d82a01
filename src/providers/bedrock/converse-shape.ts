import type { ChatMessage, GenerationParameters, PromptCacheHint } from '../../core/chat-model.js';
import { PromptCachePieces } from '../prompt-cache-pieces.js';

/**
 * Converse's generation fields: inferenceConfig, and Claude's thinking in
 * additionalModelRequestFields (its budget on top of the answer's limit, no temperature with it).
 */
export function converseGeneration(parameters: GenerationParameters) {
  const budget = parameters.thinkingBudget;
  return {
    inferenceConfig: {
      maxTokens: parameters.maxOutputTokens + (budget ?? 0),
      ...(budget === undefined ? { temperature: parameters.temperature } : {}),
      ...(parameters.topP !== undefined ? { topP: parameters.topP } : {}),
      ...(parameters.stop !== undefined ? { stopSequences: parameters.stop } : {}),
    },
    ...(budget !== undefined
      ? { additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: budget } } }
      : {}),
  };
}

/** A message's text as Converse blocks: cut at its breakpoints, a cache checkpoint after each cut. */
function converseBlocks(pieces: PromptCachePieces, index: number, content: string) {
  if (!pieces.cuts(index)) return [{ text: content }];
  return pieces
    .pieces(index, content)
    .flatMap((piece) => (piece.cached ? [{ text: piece.text }, CACHE_POINT] : [{ text: piece.text }]));
}

const CACHE_POINT = { cachePoint: { type: 'default' as const } };

/**
 * Converse's shape of a conversation: system messages as `system` blocks, the rest as text
 * messages. With a `PromptCacheHint` (a model that caches), a text is cut at its breakpoints and a
 * `cachePoint` block follows each cut (at most four): the text blocks join to the same text.
 */
export function converseShape(messages: readonly ChatMessage[], hint?: PromptCacheHint) {
  const pieces = new PromptCachePieces(hint);
  const system = messages.flatMap((message, index) =>
    message.role === 'system' ? converseBlocks(pieces, index, message.content) : [],
  );
  return {
    messages: messages.flatMap((message, index) =>
      message.role === 'system'
        ? []
        : [
            {
              role: message.role as 'user' | 'assistant',
              content: converseBlocks(pieces, index, message.content),
            },
          ],
    ),
    ...(system.length > 0 ? { system } : {}),
  };
}
