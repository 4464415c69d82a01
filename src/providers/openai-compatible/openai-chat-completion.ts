import { z } from 'zod';
import type { ChatResponse } from '../../core/chat-model.js';
import { openAIUsage, openAIUsageSchema } from './openai-usage.js';

/** What medbench reads of a chat completion (OpenAI, vLLM, SGLang, a batch output line's body). */
export const chatCompletionSchema = z.object({
  // The model that answered, as the server names it (OpenAI: a dated snapshot of the alias asked for).
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullable().optional(),
          // vLLM's and SGLang's reasoning parsers (`reasoning_content`; newer vLLM and Ollama: `reasoning`).
          reasoning_content: z.string().nullable().optional(),
          reasoning: z.string().nullable().optional(),
        }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: openAIUsageSchema.nullable().optional(),
});

/** A chat completion as medbench records it: the answer, the thinking apart, the usage. */
export function chatCompletionAnswer(completion: z.infer<typeof chatCompletionSchema>): ChatResponse {
  const choice = completion.choices[0]!;
  const reasoning = choice.message.reasoning_content ?? choice.message.reasoning;
  return {
    text: choice.message.content ?? '',
    ...(reasoning ? { reasoning } : {}),
    usage: openAIUsage(completion.usage),
    finishReason: choice.finish_reason ?? undefined,
    ...(completion.model ? { modelVersion: completion.model } : {}),
  };
}
