import { z } from 'zod';
import type { BatchClient } from '../../core/batch-client.js';
import type {
  ChatCapabilities,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
} from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { postJson } from '../http-json.js';
import { OpenAIBatchClient } from './openai-batch-client.js';
import { chatCompletionAnswer, chatCompletionSchema } from './openai-chat-completion.js';
import {
  type OpenAICompatibleChatModelOptions,
  OpenAICompatibleEndpoint,
} from './openai-compatible-endpoint.js';
import { openAIGenerationFields } from './openai-generation-fields.js';

export type { OpenAICompatibleChatModelOptions } from './openai-compatible-endpoint.js';

/** Any server speaking OpenAI's /chat/completions: OpenAI, vLLM, SGLang, Ollama, llama.cpp … */
export class OpenAICompatibleChatModel extends OpenAICompatibleEndpoint implements ChatModel {
  readonly provider: string = 'openai-compatible';
  /** OpenAI's Batch API, where the server has it (`batchApi`). */
  readonly batchClient?: () => BatchClient;

  private promptCacheKey: boolean;

  constructor(options: OpenAICompatibleChatModelOptions) {
    super(options);
    this.promptCacheKey = options.promptCacheKey ?? false;
    if (options.batchApi) {
      const client = new OpenAIBatchClient({
        url: (route) => this.batchUrl(route),
        requestOptions: () => this.requestOptions(),
        batchRequest: (request) => this.batchLine(request),
        batchEndpoint: () => this.batchEndpoint(),
      });
      this.batchClient = () => client;
    }
  }

  /** Where the Files and Batch API routes are (OpenAI: under the base URL). */
  protected batchUrl(route: string): string {
    return this.url(route);
  }

  /** The `url` of the provider's batch lines, which its batch names as its endpoint. */
  protected batchEndpoint(): string {
    return '/v1/chat/completions';
  }

  /** A request as a line of the provider's own batch file (OpenAI: the exported line). */
  protected batchLine(request: ChatRequest): { url: string; body: Record<string, unknown> } {
    return this.batchRequest(request);
  }

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

  /** The JSON body of a request to /chat/completions, as `generate` sends it. */
  protected chatBody(request: ChatRequest): Record<string, unknown> {
    const prefilled = request.messages.at(-1)?.role === 'assistant';
    return {
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
      // OpenAI and Azure: requests sharing a prefix go to the same cache.
      ...(this.promptCacheKey && request.promptCache ? { prompt_cache_key: request.promptCache.key } : {}),
      ...request.parameters.extraBody,
    };
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    try {
      return await this.send(request);
    } catch (error) {
      // A deployment that refuses prompt_cache_key (Azure serving another maker's model answers
      // 400 "Unrecognized request argument supplied: prompt_cache_key"): sent again without it,
      // and never again to this endpoint.
      if (!(this.promptCacheKey && request.promptCache && refusesCacheKey(error))) throw error;
      this.promptCacheKey = false;
      return this.send(request);
    }
  }

  private async send(request: ChatRequest): Promise<ChatResponse> {
    const response = await postJson({
      url: this.url('/chat/completions'),
      ...(await this.requestOptions()),
      body: this.chatBody(request),
      schema: chatCompletionSchema,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return chatCompletionAnswer(response);
  }

  /**
   * The body `generate` sends, as an OpenAI batch line's: a batch file names the model in each
   * body, also where the URL names it (an Azure deployment).
   */
  batchRequest(request: ChatRequest): { url: string; body: Record<string, unknown> } {
    return { url: '/v1/chat/completions', body: { model: this.modelId, ...this.chatBody(request) } };
  }
}

/** A 400 naming prompt_cache_key: the server does not take the field. */
function refusesCacheKey(error: unknown): boolean {
  return MedbenchError.is(error) && error.status === 400 && error.message.includes('prompt_cache_key');
}
