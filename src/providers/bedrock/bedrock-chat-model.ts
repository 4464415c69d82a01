import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type {
  ChatCapabilities,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  EndpointFacts,
  GenerationParameters,
  PromptCacheHint,
  TokenUsage,
} from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { loadOptionalPart, OPTIONAL_PARTS } from '../../core/optional-part.js';
import { PromptCachePieces } from '../prompt-cache-pieces.js';
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
  /** Cache points go with a prompt cache hint: a model Bedrock caches, until Bedrock refuses them. */
  private cachePoints: boolean;
  private client: Promise<BedrockRuntimeClient> | undefined;

  constructor(private readonly options: BedrockChatModelOptions) {
    this.modelId = options.modelId;
    this.region = regionOf(options);
    this.endpoint = runtimeIdentity(options);
    this.cachePoints = bedrockCachesPrompts(options.modelId);
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
      const { CountTokensCommand } = await loadOptionalPart(
        OPTIONAL_PARTS.bedrock,
        () => import('@aws-sdk/client-bedrock-runtime'),
      );
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
    const hint = this.cachePoints ? request.promptCache : undefined;
    try {
      return await this.converse(request, hint);
    } catch (error) {
      // Refused (an account or region without prompt caching for the model): sent again
      // without cache points, and none are sent to this endpoint again.
      if (!hint || !refusesCaching(error)) throw error;
      this.cachePoints = false;
      return this.converse(request, undefined);
    }
  }

  private async converse(request: ChatRequest, hint: PromptCacheHint | undefined): Promise<ChatResponse> {
    try {
      const { ConverseCommand } = await loadOptionalPart(
        OPTIONAL_PARTS.bedrock,
        () => import('@aws-sdk/client-bedrock-runtime'),
      );
      const client = await this.runtime();
      const output = await client.send(
        new ConverseCommand({
          modelId: this.modelId,
          ...converseShape(request.messages, hint),
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

/**
 * The model families Bedrock documents prompt caching for (cache checkpoints in Converse): Claude
 * 3.5 Haiku, 3.7 Sonnet and the Claude 4 generation on (`claude-{sonnet,opus,haiku}-N`), Amazon
 * Nova (Micro, Lite, Pro, Premier). Bedrock refuses a checkpoint for any other model.
 */
const CACHING_MODELS =
  /anthropic\.claude-(?:3-5-haiku|3-7-sonnet|(?:sonnet|opus|haiku)-\d)|amazon\.nova-(?:2-)?(?:micro|lite|pro|premier)/;

/** Whether Bedrock caches prompts of this model (a model id, an inference profile, or its ARN). */
export function bedrockCachesPrompts(modelId: string): boolean {
  return CACHING_MODELS.test(modelId);
}

/** Bedrock's 400 for cache points it does not take ("…did not allow prompt caching"). */
function refusesCaching(error: unknown): boolean {
  return MedbenchError.is(error) && error.status === 400 && /prompt caching|cachePoint/i.test(error.message);
}

/** A message's text as Converse blocks: cut at its breakpoints, a cache checkpoint after each cut. */
function converseBlocks(pieces: PromptCachePieces, index: number, content: string) {
  if (!pieces.cuts(index)) return [{ text: content }];
  return pieces
    .pieces(index, content)
    .flatMap((piece) => (piece.cached ? [{ text: piece.text }, CACHE_POINT] : [{ text: piece.text }]));
}

const CACHE_POINT = { cachePoint: { type: 'default' as const } };

/**
 * Converse's shape of a conversation: system messages as `system` blocks, the rest as text
 * messages. With a `PromptCacheHint` (a model that caches), a text is cut at its breakpoints and a
 * `cachePoint` block follows each cut (at most four): the text blocks join to the same text.
 */
function converseShape(messages: readonly ChatMessage[], hint?: PromptCacheHint) {
  const pieces = new PromptCachePieces(hint);
  const system = messages.flatMap((message, index) =>
    message.role === 'system' ? converseBlocks(pieces, index, message.content) : [],
  );
  return {
    messages: messages.flatMap((message, index) =>
      message.role === 'system'
        ? []
        : [
            {
              role: message.role as 'user' | 'assistant',
              content: converseBlocks(pieces, index, message.content),
            },
          ],
    ),
    ...(system.length > 0 ? { system } : {}),
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
