import { z } from 'zod';
import type {
  ChatCapabilities,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  EndpointFacts,
  GenerationParameters,
  TokenUsage,
} from '../../core/chat-model.js';
import { HttpEndpoint, type HttpEndpointOptions } from '../http-endpoint.js';
import { field, postJson } from '../http-json.js';
import { settleProbe } from '../settle-probe.js';

const responseSchema = z.object({
  content: z.array(
    z.object({ type: z.string(), text: z.string().optional(), thinking: z.string().optional() }),
  ),
  stop_reason: z.string().nullable().optional(),
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
export function anthropicUsage(usage: z.infer<typeof responseSchema>['usage']): TokenUsage | undefined {
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

export interface AnthropicChatModelOptions
  extends Pick<HttpEndpointOptions, 'headers' | 'secretHeaders' | 'query'> {
  baseURL?: string;
  modelId: string;
  apiKey: string;
  apiKeyEnv?: string;
  /** The `anthropic-version` header. */
  version?: string;
  /** Requests think (thinkingBudget): the API then refuses a prefilled answer. */
  thinking?: boolean;
}

/** Anthropic's Messages API (POST /v1/messages), the key in `x-api-key`. */
export class AnthropicChatModel extends HttpEndpoint implements ChatModel {
  readonly provider = 'anthropic';
  /**
   * A trailing assistant message is continued natively; the API refuses one ending in whitespace,
   * and any with thinking on.
   */
  readonly capabilities: ChatCapabilities;
  private readonly version: string;

  constructor(options: AnthropicChatModelOptions) {
    super({ ...options, baseURL: options.baseURL ?? 'https://api.anthropic.com', apiKeyHeader: 'x-api-key' });
    this.version = options.version ?? '2023-06-01';
    this.capabilities = {
      prefill: options.thinking ? 'none' : 'trimmed',
      ...(options.thinking
        ? {
            noPrefillReason:
              "Anthropic's API refuses a prefilled answer while extended thinking is on (thinkingBudget)",
          }
        : {}),
      truncatePrompt: false,
      countTokens: true,
    };
  }

  protected override authHint(): string {
    return `Set ${this.apiKeyEnv ?? 'ANTHROPIC_API_KEY'} to a valid Anthropic API key.`;
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const response = await postJson({
      url: this.url('/v1/messages'),
      ...(await this.versioned()),
      body: {
        model: this.modelId,
        ...anthropicGenerationFields(request.parameters),
        ...splitSystem(request.messages),
        ...request.parameters.extraBody,
      },
      schema: responseSchema,
      ...(request.signal ? { signal: request.signal } : {}),
    });
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
    };
  }

  /**
   * GET /v1/models/{model} (free): a refused key or an unknown model id (or alias) fails here,
   * before a run schedules anything; an outage is the check's to judge (`settleProbe`). Any other
   * failure leaves the run to find out.
   */
  async probe(signal?: AbortSignal): Promise<EndpointFacts> {
    try {
      await postJson({
        url: this.url(`/v1/models/${encodeURIComponent(this.modelId)}`),
        ...(await this.versioned()),
        body: undefined,
        schema: z.object({ id: z.string() }),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      return settleProbe(error, {
        message: `Anthropic has no model "${this.modelId}".`,
        hint: 'Fix the model id or alias (e.g. claude-3-5-haiku-20241022); `GET /v1/models` lists those your key may use.',
      });
    }
    return {};
  }

  /** POST /v1/messages/count_tokens: Anthropic's own count of the prompt (free). */
  async countTokens(messages: ChatMessage[], signal?: AbortSignal): Promise<number> {
    const counted = await postJson({
      url: this.url('/v1/messages/count_tokens'),
      ...(await this.versioned()),
      body: { model: this.modelId, ...splitSystem(messages) },
      schema: z.object({ input_tokens: z.number() }),
      ...(signal ? { signal } : {}),
    });
    return counted.input_tokens;
  }

  private async versioned() {
    const options = await this.requestOptions();
    return { ...options, headers: { ...options.headers, 'anthropic-version': this.version } };
  }
}

/**
 * The Messages API's generation fields. With thinking, the budget comes on top of the answer's
 * limit (max_tokens must exceed budget_tokens) and no temperature is sent (thinking refuses one).
 */
function anthropicGenerationFields(parameters: GenerationParameters): Record<string, unknown> {
  const budget = parameters.thinkingBudget;
  return {
    max_tokens: parameters.maxOutputTokens + (budget ?? 0),
    ...(budget === undefined
      ? { temperature: parameters.temperature }
      : { thinking: { type: 'enabled', budget_tokens: budget } }),
    ...field('top_p', parameters.topP),
    ...field('stop_sequences', parameters.stop),
  };
}

/** Anthropic's shape of a conversation: system messages joined in `system`, the rest as messages. */
function splitSystem(messages: readonly ChatMessage[]): { system?: string; messages: ChatMessage[] } {
  const system = messages
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n\n');
  return { ...(system ? { system } : {}), messages: messages.filter((message) => message.role !== 'system') };
}
