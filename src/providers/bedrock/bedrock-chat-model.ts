import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type { BatchClient } from '../../core/batch-client.js';
import type {
  ChatCapabilities,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  EndpointFacts,
  PromptCacheHint,
  TokenUsage,
} from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { loadOptionalPart, OPTIONAL_PARTS } from '../../core/optional-part.js';
import { settleProbe } from '../settle-probe.js';
import { BedrockBatchClient } from './bedrock-batch-client.js';
import { type BatchSdk, batchSdk } from './bedrock-batch-sdk.js';
import { type BedrockBatchSettings, batchPlacement } from './bedrock-batch-settings.js';
import { claudeInvokeBody } from './bedrock-claude-body.js';
import { bedrockFailure, isInvalidModelId, s3Failure } from './bedrock-errors.js';
import { type BedrockConnection, bedrockRuntime, regionOf, runtimeIdentity } from './bedrock-runtime.js';
import { converseGeneration, converseShape } from './converse-shape.js';

export interface BedrockChatModelOptions extends BedrockConnection {
  /** A Bedrock model id or inference profile, e.g. anthropic.claude-3-5-sonnet-20240620-v1:0. */
  modelId: string;
  /** Where `run --batch` puts its batches (S3) and the role Bedrock runs them as. */
  batch?: BedrockBatchSettings;
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

  /**
   * Bedrock's batch inference for this model (`run --batch`): Claude models, their native
   * InvokeModel body made from the Converse request the synchronous run sends. A usage error for
   * another model family, or an endpoint without the batch settings (they are named).
   */
  batchClient(): BatchClient {
    if (this.batches) return this.batches;
    const settings = this.options.batch ?? {};
    const placement = batchPlacement(this.modelId, settings);
    let sdk: Promise<BatchSdk> | undefined;
    this.batches = new BedrockBatchClient({
      modelId: this.modelId,
      placement,
      sdk: () => {
        sdk ??= batchSdk(this.options, settings);
        return sdk;
      },
      body: (request) =>
        claudeInvokeBody(request, bedrockCachesPrompts(this.modelId) ? request.promptCache : undefined),
      failure: (caught, shown, signal) => {
        const error = bedrockFailure(caught, { shown, modelId: this.modelId, region: this.region, signal });
        return shown.startsWith('s3://') ? s3Failure(error) : error;
      },
    });
    return this.batches;
  }

  private batches: BatchClient | undefined;

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
