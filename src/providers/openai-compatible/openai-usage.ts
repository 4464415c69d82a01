import { z } from 'zod';
import type { TokenUsage } from '../../core/chat-model.js';

/** OpenAI's `usage`: completion_tokens counts the reasoning tokens too, detailed apart. */
export const openAIUsageSchema = z.object({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  completion_tokens_details: z
    .object({ reasoning_tokens: z.number().nullable().optional() })
    .nullable()
    .optional(),
});

/** The usage as medbench records it: reasoning tokens apart where the server counts them. */
export function openAIUsage(
  usage: z.infer<typeof openAIUsageSchema> | null | undefined,
): TokenUsage | undefined {
  if (!usage) return undefined;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    ...(typeof reasoning === 'number' ? { reasoningTokens: reasoning } : {}),
  };
}
