import { z } from 'zod';
import type {
  ChatCapabilities,
  ChatModel,
  ChatRequest,
  ChatResponse,
  EndpointFacts,
} from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { HttpEndpoint, type HttpEndpointOptions } from '../http-endpoint.js';
import { field, postJson } from '../http-json.js';

export interface OllamaChatModelOptions
  extends Pick<HttpEndpointOptions, 'apiKey' | 'apiKeyEnv' | 'headers' | 'secretHeaders' | 'query'> {
  /** The server, e.g. http://127.0.0.1:11434 (no /v1: this is Ollama's own API). */
  baseURL: string;
  /** The model as Ollama names it, e.g. llama3.1:8b. */
  modelId: string;
  /**
   * Sent as `num_ctx` with every request. Ollama's default window is small and it cuts a longer
   * prompt silently, keeping its end: a long-context benchmark must set the window it measures.
   */
  contextWindow: number;
}

const chatSchema = z.object({
  // A thinking model's thoughts come apart, in `thinking`.
  message: z.object({ content: z.string(), thinking: z.string().optional() }),
  done_reason: z.string().optional(),
  model: z.string().optional(),
  prompt_eval_count: z.number().optional(),
  eval_count: z.number().optional(),
});

const showSchema = z.object({
  model_info: z.record(z.string(), z.unknown()).optional(),
  capabilities: z.array(z.string()).optional(),
});

/** Ollama's native API: /api/chat for answers, /api/show for the model's facts. */
export class OllamaChatModel extends HttpEndpoint implements ChatModel {
  readonly provider = 'ollama';
  readonly capabilities: ChatCapabilities = { prefill: 'none', truncatePrompt: false };
  readonly contextWindow: number;

  constructor(options: OllamaChatModelOptions) {
    super({
      ...options,
      notFoundHint: `Ollama at ${options.baseURL} has no model "${options.modelId}": run \`ollama pull ${options.modelId}\` there, or fix the model name (Ollama's own, e.g. llama3.1:8b).`,
    });
    this.contextWindow = options.contextWindow;
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const response = await postJson({
      url: this.url('/api/chat'),
      ...(await this.requestOptions()),
      body: {
        model: this.modelId,
        messages: request.messages,
        stream: false,
        options: {
          temperature: request.parameters.temperature,
          num_predict: request.parameters.maxOutputTokens,
          num_ctx: this.contextWindow,
          ...field('top_p', request.parameters.topP),
          ...field('seed', request.parameters.seed),
          ...field('stop', request.parameters.stop),
          ...field('frequency_penalty', request.parameters.frequencyPenalty),
          ...field('presence_penalty', request.parameters.presencePenalty),
        },
        ...request.parameters.extraBody,
      },
      schema: chatSchema,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return {
      text: response.message.content,
      ...(response.message.thinking ? { reasoning: response.message.thinking } : {}),
      usage:
        response.prompt_eval_count !== undefined && response.eval_count !== undefined
          ? { inputTokens: response.prompt_eval_count, outputTokens: response.eval_count }
          : undefined,
      finishReason: response.done_reason,
      ...(response.model ? { modelVersion: response.model } : {}),
    };
  }

  /** /api/show: the model exists, generates text, and how long a context it was trained for. */
  async probe(signal?: AbortSignal): Promise<EndpointFacts> {
    const shown = await postJson({
      url: this.url('/api/show'),
      ...(await this.requestOptions()),
      body: { model: this.modelId },
      schema: showSchema,
      ...(signal ? { signal } : {}),
    });
    if (shown.capabilities && !shown.capabilities.includes('completion'))
      throw new MedbenchError({
        code: 'CONFIG_INVALID',
        message: `Ollama's "${this.modelId}" at ${this.endpoint} does not generate text (its capabilities: ${shown.capabilities.join(', ')}).`,
        hint: 'Name a chat model; an embedding model belongs under embeddingModels.',
      });
    const key = Object.keys(shown.model_info ?? {}).find((name) => name.endsWith('.context_length'));
    const length = key ? shown.model_info![key] : undefined;
    return typeof length === 'number' && length > 0 ? { maxContextTokens: length } : {};
  }
}
