import { z } from 'zod';
import type { TokenUsage } from '../../core/chat-model.js';

/**
 * OpenAI's `usage`: completion_tokens counts the reasoning tokens too, detailed apart;
 * prompt_tokens counts the cached ones too (`prompt_tokens_details.cached_tokens`, which OpenAI,
 * Azure OpenAI and vLLM with its prefix-cache stats report).
 */
export const openAIUsageSchema = z.object({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().nullable().optional() }).nullable().optional(),
  completion_tokens_details: z
    .object({ reasoning_tokens: z.number().nullable().optional() })
    .nullable()
    .optional(),
});

/** The usage as medbench records it: reasoning and cached tokens apart where the server counts them. */
export function openAIUsage(
  usage: z.infer<typeof openAIUsageSchema> | null | undefined,
): TokenUsage | undefined {
  if (!usage) return undefined;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    ...(typeof reasoning === 'number' ? { reasoningTokens: reasoning } : {}),
    ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}),
  };
}
