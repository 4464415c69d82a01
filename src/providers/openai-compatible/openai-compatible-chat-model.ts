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

export type { OpenAICompatibleChatModelOptions } from './openai-compatible-endpoint.js';

const responseSchema = z.object({
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

/** Any server speaking OpenAI's /chat/completions: OpenAI, vLLM, SGLang, Ollama, llama.cpp … */
export class OpenAICompatibleChatModel extends OpenAICompatibleEndpoint implements ChatModel {
  readonly provider: string = 'openai-compatible';

  get capabilities(): ChatCapabilities {
    return {
      prefill: this.serverExtensions ? 'continue' : 'none',
      truncatePrompt: this.serverExtensions,
      // vLLM's /tokenize; OpenAI and Azure have no count route.
      countTokens: this.serverExtensions,
    };
  }

  /**
   * vLLM's POST /tokenize with the messages (its chat template applied, as the model sees them):
   * the server's own count. Other servers have no such route (an error the run reports).
   */
  async countTokens(messages: ChatMessage[], signal?: AbortSignal): Promise<number> {
    const counted = await postJson({
      url: this.rootUrl('/tokenize'),
      ...(await this.requestOptions()),
      body: { model: this.modelId, messages, add_generation_prompt: true },
      schema: z.object({ count: z.number() }),
      ...(signal ? { signal } : {}),
    });
    return counted.count;
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const prefilled = request.messages.at(-1)?.role === 'assistant';
    const response = await postJson({
      url: this.url('/chat/completions'),
      ...(await this.requestOptions()),
      body: {
        ...this.modelField,
        messages: request.messages,
        ...openAIGenerationFields(request.parameters),
        stream: false,
        // vLLM: continue the trailing assistant message instead of opening a new one.
        ...(prefilled && this.serverExtensions
          ? { continue_final_message: true, add_generation_prompt: false }
          : {}),
        ...(request.truncatePromptTokens !== undefined && this.serverExtensions
          ? { truncate_prompt_tokens: request.truncatePromptTokens }
          : {}),
        ...request.parameters.extraBody,
      },
      schema: responseSchema,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const choice = response.choices[0]!;
    const reasoning = choice.message.reasoning_content ?? choice.message.reasoning;
    return {
      text: choice.message.content ?? '',
      ...(reasoning ? { reasoning } : {}),
      usage: openAIUsage(response.usage),
      finishReason: choice.finish_reason ?? undefined,
    };
  }
}
