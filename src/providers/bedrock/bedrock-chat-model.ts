import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
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
import { MedbenchError } from '../../core/errors.js';
import { settleProbe } from '../settle-probe.js';
import { bedrockFailure, isInvalidModelId } from './bedrock-errors.js';
import { type BedrockConnection, bedrockRuntime, regionOf, runtimeIdentity } from './bedrock-runtime.js';

export interface BedrockChatModelOptions extends BedrockConnection {
  /** A Bedrock model id or inference profile, e.g. anthropic.claude-3-5-sonnet-20240620-v1:0. */
  modelId: string;
}

/**
 * Amazon Bedrock's Converse API through the official SDK (SigV4 signing, the AWS credential and
 * region chain). The SDK's own retries are off: the runner retries, and records each attempt.
 */
export class BedrockChatModel implements ChatModel {
  readonly provider = 'bedrock';
  readonly capabilities: ChatCapabilities = {
    prefill: 'none',
    truncatePrompt: false,
    countTokens: true,
  };
  readonly modelId: string;
  readonly endpoint: string;
  private readonly region: string | undefined;
  private client: Promise<BedrockRuntimeClient> | undefined;

  constructor(private readonly options: BedrockChatModelOptions) {
    this.modelId = options.modelId;
    this.region = regionOf(options);
    this.endpoint = runtimeIdentity(options);
  }

  private runtime(): Promise<BedrockRuntimeClient> {
    this.client ??= bedrockRuntime(this.options, this.modelId);
    return this.client;
  }

  /**
   * CountTokens on a one-word prompt (free): refused credentials, a region without the model (404)
   * or an unknown model id (400 "The provided model identifier is invalid.") fail here, before any
   * sample is scheduled; an outage is the check's to judge (`settleProbe`). A model that cannot
   * count tokens (or any other failure) leaves the run to find out.
   */
  async probe(signal?: AbortSignal): Promise<EndpointFacts> {
    try {
      await this.countTokens([{ role: 'user', content: 'ping' }], signal);
    } catch (error) {
      if (MedbenchError.is(error) && isInvalidModelId(error))
        throw new MedbenchError({
          code: 'MODEL_NOT_FOUND',
          message: error.message,
          ...(error.hint ? { hint: error.hint } : {}),
        });
      return settleProbe(error);
    }
    return {};
  }

  /** CountTokens (free): Bedrock's own count of the prompt as Converse would send it. */
  async countTokens(messages: ChatMessage[], signal?: AbortSignal): Promise<number> {
    try {
      const { CountTokensCommand } = await import('@aws-sdk/client-bedrock-runtime');
      const client = await this.runtime();
      const counted = await client.send(
        new CountTokensCommand({ modelId: this.modelId, input: { converse: converseShape(messages) } }),
        signal ? { abortSignal: signal } : {},
      );
      return counted.inputTokens ?? 0;
    } catch (caught) {
      throw bedrockFailure(caught, {
        shown: this.endpoint,
        modelId: this.modelId,
        region: this.region,
        signal,
      });
    }
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    try {
      const { ConverseCommand } = await import('@aws-sdk/client-bedrock-runtime');
      const client = await this.runtime();
      const output = await client.send(
        new ConverseCommand({
          modelId: this.modelId,
          ...converseShape(request.messages),
          ...converseGeneration(request.parameters),
        }),
        request.signal ? { abortSignal: request.signal } : {},
      );
      const content = output.output?.message?.content;
      if (!content)
        throw new MedbenchError({
          code: 'ENDPOINT_BAD_RESPONSE',
          message: `${this.endpoint} returned no output message.`,
          retryable: true,
        });
      const usage = output.usage;
      const thinking = content.map((block) => block.reasoningContent?.reasoningText?.text ?? '').join('');
      return {
        text: content.map((block) => block.text ?? '').join(''),
        ...(thinking ? { reasoning: thinking } : {}),
        usage: converseUsage(usage),
        finishReason: output.stopReason,
      };
    } catch (caught) {
      throw bedrockFailure(caught, {
        shown: this.endpoint,
        modelId: this.modelId,
        region: this.region,
        signal: request.signal,
      });
    }
  }
}

/**
 * Converse's generation fields: inferenceConfig, and Claude's thinking in
 * additionalModelRequestFields (its budget on top of the answer's limit, no temperature with it).
 */
function converseGeneration(parameters: GenerationParameters) {
  const budget = parameters.thinkingBudget;
  return {
    inferenceConfig: {
      maxTokens: parameters.maxOutputTokens + (budget ?? 0),
      ...(budget === undefined ? { temperature: parameters.temperature } : {}),
      ...(parameters.topP !== undefined ? { topP: parameters.topP } : {}),
      ...(parameters.stop !== undefined ? { stopSequences: parameters.stop } : {}),
    },
    ...(budget !== undefined
      ? { additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: budget } } }
      : {}),
  };
}

/** Converse's shape of a conversation: system messages as `system` blocks, the rest as text messages. */
function converseShape(messages: readonly ChatMessage[]) {
  const system = messages.filter((message) => message.role === 'system');
  return {
    messages: messages
      .filter((message) => message.role !== 'system')
      .map((message) => ({
        role: message.role as 'user' | 'assistant',
        content: [{ text: message.content }],
      })),
    ...(system.length > 0 ? { system: system.map((message) => ({ text: message.content })) } : {}),
  };
}

/**
 * Converse's usage as medbench records it. With prompt caching its `inputTokens` are the tokens
 * neither read from nor written to the cache (Bedrock's prompt-caching guide: total input tokens =
 * inputTokens + cacheReadInputTokens + cacheWriteInputTokens), so the three are summed.
 */
export function converseUsage(
  usage:
    | {
        inputTokens?: number;
        outputTokens?: number;
        cacheReadInputTokens?: number;
        cacheWriteInputTokens?: number;
      }
    | undefined,
): TokenUsage | undefined {
  if (usage?.inputTokens === undefined || usage.outputTokens === undefined) return undefined;
  const read = usage.cacheReadInputTokens;
  const written = usage.cacheWriteInputTokens;
  return {
    inputTokens: usage.inputTokens + (read ?? 0) + (written ?? 0),
    outputTokens: usage.outputTokens,
    ...(read !== undefined ? { cachedInputTokens: read } : {}),
    ...(written !== undefined ? { cacheWriteTokens: written } : {}),
  };
}
