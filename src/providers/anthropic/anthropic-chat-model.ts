import { z } from 'zod';
import type { BatchClient } from '../../core/batch-client.js';
import type {
  ChatCapabilities,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  EndpointFacts,
  GenerationParameters,
} from '../../core/chat-model.js';
import { HttpEndpoint, type HttpEndpointOptions } from '../http-endpoint.js';
import { field, postJson } from '../http-json.js';
import { settleProbe } from '../settle-probe.js';
import { AnthropicBatchClient } from './anthropic-batch-client.js';
import { anthropicConversation } from './anthropic-conversation.js';
import { messageAnswer, messageSchema } from './anthropic-message.js';

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

  /** The body of a Messages API request, as `generate` sends it (and a batch request's `params`). */
  messagesBody(request: ChatRequest): Record<string, unknown> {
    return {
      model: this.modelId,
      ...anthropicGenerationFields(request.parameters),
      ...anthropicConversation(request.messages, request.promptCache),
      ...request.parameters.extraBody,
    };
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const response = await postJson({
      url: this.url('/v1/messages'),
      ...(await this.versioned()),
      body: this.messagesBody(request),
      schema: messageSchema,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return messageAnswer(response);
  }

  /** Anthropic's Message Batches API for this model (`run --batch`). */
  batchClient(): BatchClient {
    this.batches ??= new AnthropicBatchClient({
      url: (route) => this.url(route),
      requestOptions: () => this.versioned(),
      params: (request) => this.messagesBody(request),
    });
    return this.batches;
  }

  private batches: BatchClient | undefined;

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
      body: { model: this.modelId, ...anthropicConversation(messages) },
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
