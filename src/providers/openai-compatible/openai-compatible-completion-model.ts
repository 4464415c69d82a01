import { z } from 'zod';
import type {
  ChatCapabilities,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
} from '../../core/chat-model.js';
import { postJson } from '../http-json.js';
import { OpenAICompatibleEndpoint } from './openai-compatible-endpoint.js';
import { openAIGenerationFields } from './openai-generation-fields.js';
import { openAIUsage, openAIUsageSchema } from './openai-usage.js';

const responseSchema = z.object({
  choices: z.array(z.object({ text: z.string(), finish_reason: z.string().nullable().optional() })).min(1),
  usage: openAIUsageSchema.nullable().optional(),
  model: z.string().optional(),
});

/**
 * A conversation as plain text for a base model: every message's content (system prompt,
 * shots, query) joined by blank lines, as CLUE prompts base models.
 */
export function plainTextPrompt(messages: readonly ChatMessage[]): string {
  return messages.map((message) => message.content).join('\n\n');
}

/** A base (non-chat) model behind an OpenAI-compatible `/completions` endpoint. */
export class OpenAICompatibleCompletionModel extends OpenAICompatibleEndpoint implements ChatModel {
  readonly provider = 'openai-compatible-completions';

  get capabilities(): ChatCapabilities {
    // Plain text: a prefill is simply the end of the prompt.
    return { prefill: 'continue', truncatePrompt: this.serverExtensions };
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const response = await postJson({
      url: this.url('/completions'),
      ...(await this.requestOptions()),
      body: {
        model: this.modelId,
        prompt: plainTextPrompt(request.messages),
        ...openAIGenerationFields(request.parameters),
        ...(request.truncatePromptTokens !== undefined && this.serverExtensions
          ? { truncate_prompt_tokens: request.truncatePromptTokens }
          : {}),
        ...request.parameters.extraBody,
      },
      schema: responseSchema,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const choice = response.choices[0]!;
    return {
      text: choice.text,
      usage: openAIUsage(response.usage),
      finishReason: choice.finish_reason ?? undefined,
      ...(response.model ? { modelVersion: response.model } : {}),
    };
  }
}
