import { z } from 'zod';
import type { ChatCapabilities, ChatModel, ChatRequest, ChatResponse } from '../core/chat-model.js';
import { endpointIdentity, routeUrl } from './endpoint-identity.js';
import { postJson } from './http-json.js';

const responseSchema = z.object({
  content: z.array(z.object({ type: z.string(), text: z.string().optional() })),
  stop_reason: z.string().nullable().optional(),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).optional(),
});

export interface AnthropicChatModelOptions {
  baseURL?: string;
  modelId: string;
  apiKey: string;
  apiKeyEnv?: string;
  /** The `anthropic-version` header. */
  version?: string;
}

/** Anthropic's Messages API (POST /v1/messages). */
export class AnthropicChatModel implements ChatModel {
  readonly provider = 'anthropic';
  /** A trailing assistant message is continued natively; the API refuses one ending in whitespace. */
  readonly capabilities: ChatCapabilities = { prefill: 'trimmed', truncatePrompt: false };
  readonly modelId: string;
  /** The base URL without credentials (`endpointIdentity`). */
  readonly endpoint: string;
  private readonly baseURL: string;
  private readonly apiKey: string;
  private readonly apiKeyEnv: string | undefined;
  private readonly version: string;

  constructor(options: AnthropicChatModelOptions) {
    this.baseURL = options.baseURL ?? 'https://api.anthropic.com';
    this.endpoint = endpointIdentity(this.baseURL);
    this.modelId = options.modelId;
    this.apiKey = options.apiKey;
    this.apiKeyEnv = options.apiKeyEnv;
    this.version = options.version ?? '2023-06-01';
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const system = request.messages
      .filter((message) => message.role === 'system')
      .map((message) => message.content)
      .join('\n\n');
    const response = await postJson({
      url: routeUrl(this.baseURL, '/v1/messages'),
      headers: { 'x-api-key': this.apiKey, 'anthropic-version': this.version },
      body: {
        model: this.modelId,
        max_tokens: request.parameters.maxOutputTokens,
        temperature: request.parameters.temperature,
        ...(system ? { system } : {}),
        messages: request.messages.filter((message) => message.role !== 'system'),
      },
      schema: responseSchema,
      ...(request.signal ? { signal: request.signal } : {}),
      authHint: `Set ${this.apiKeyEnv ?? 'ANTHROPIC_API_KEY'} to a valid Anthropic API key.`,
    });
    return {
      text: response.content
        .filter((block) => block.type === 'text')
        .map((block) => block.text ?? '')
        .join(''),
      usage: response.usage
        ? { inputTokens: response.usage.input_tokens, outputTokens: response.usage.output_tokens }
        : undefined,
      finishReason: response.stop_reason ?? undefined,
    };
  }
}
