import { z } from 'zod';
import type { ChatModel, ChatRequest, ChatResponse } from '../core/chat-model.js';
import { postJson } from './http-json.js';

const responseSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullable().optional(),
});

export interface OpenAICompatibleChatModelOptions {
  /** Base URL up to and including the API version, e.g. http://127.0.0.1:8000/v1. */
  baseURL: string;
  modelId: string;
  /** The key itself (read from the environment by the caller); never logged. */
  apiKey?: string;
  /** Name of the variable the key came from, for error hints. */
  apiKeyEnv?: string;
  headers?: Record<string, string>;
}

/** Any server speaking OpenAI's /chat/completions: OpenAI, vLLM, SGLang, Ollama, llama.cpp … */
export class OpenAICompatibleChatModel implements ChatModel {
  readonly provider = 'openai-compatible';
  readonly modelId: string;
  readonly endpoint: string;
  private readonly apiKey: string | undefined;
  private readonly apiKeyEnv: string | undefined;
  private readonly headers: Record<string, string>;

  constructor(options: OpenAICompatibleChatModelOptions) {
    this.endpoint = options.baseURL.replace(/\/+$/, '');
    this.modelId = options.modelId;
    this.apiKey = options.apiKey;
    this.apiKeyEnv = options.apiKeyEnv;
    this.headers = options.headers ?? {};
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const response = await postJson({
      url: `${this.endpoint}/chat/completions`,
      headers: { ...this.headers, ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}) },
      body: {
        model: this.modelId,
        messages: request.messages,
        temperature: request.parameters.temperature,
        max_tokens: request.parameters.maxOutputTokens,
        stream: false,
      },
      schema: responseSchema,
      ...(request.signal ? { signal: request.signal } : {}),
      authHint: this.apiKeyEnv
        ? `Set ${this.apiKeyEnv} to a valid key for ${this.endpoint}.`
        : `This endpoint needs a key: name its environment variable with apiKeyEnv in medbench.config.json.`,
    });
    const choice = response.choices[0]!;
    return {
      text: choice.message.content ?? '',
      usage: response.usage
        ? { inputTokens: response.usage.prompt_tokens, outputTokens: response.usage.completion_tokens }
        : undefined,
      finishReason: choice.finish_reason ?? undefined,
    };
  }
}
