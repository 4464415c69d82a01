import { z } from 'zod';
import type { ChatResponse, TokenUsage } from '../../core/chat-model.js';

/** What medbench reads of a Message (a Messages API answer, a batch result's `message`). */
export const messageSchema = z.object({
  content: z.array(
    z.object({ type: z.string(), text: z.string().optional(), thinking: z.string().optional() }),
  ),
  stop_reason: z.string().nullable().optional(),
  model: z.string().optional(),
  usage: z
    .object({
      input_tokens: z.number(),
      output_tokens: z.number(),
      cache_read_input_tokens: z.number().nullable().optional(),
      cache_creation_input_tokens: z.number().nullable().optional(),
    })
    .optional(),
});

/**
 * Anthropic's usage as medbench records it: its `input_tokens` are those after the last cache
 * breakpoint only, so every prompt token is input_tokens + cache_read + cache_creation.
 */
export function anthropicUsage(usage: z.infer<typeof messageSchema>['usage']): TokenUsage | undefined {
  if (!usage) return undefined;
  const read = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: usage.input_tokens + read + written,
    outputTokens: usage.output_tokens,
    ...(usage.cache_read_input_tokens != null ? { cachedInputTokens: read } : {}),
    ...(usage.cache_creation_input_tokens != null ? { cacheWriteTokens: written } : {}),
  };
}

/** A Message as medbench records it: the text blocks, the thinking apart, the usage. */
export function messageAnswer(response: z.infer<typeof messageSchema>): ChatResponse {
  const thinking = response.content
    .filter((block) => block.type === 'thinking')
    .map((block) => block.thinking ?? '')
    .join('');
  return {
    text: response.content
      .filter((block) => block.type === 'text')
      .map((block) => block.text ?? '')
      .join(''),
    ...(thinking ? { reasoning: thinking } : {}),
    usage: anthropicUsage(response.usage),
    finishReason: response.stop_reason ?? undefined,
    ...(response.model ? { modelVersion: response.model } : {}),
  };
}
