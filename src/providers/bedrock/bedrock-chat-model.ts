import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type { ChatCapabilities, ChatModel, ChatRequest, ChatResponse } from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { endpointIdentity } from '../endpoint-identity.js';
import { bedrockFailure } from './bedrock-errors.js';

export interface BedrockChatModelOptions {
  /** A Bedrock model id or inference profile, e.g. anthropic.claude-3-5-sonnet-20240620-v1:0. */
  modelId: string;
  /** The AWS region; without it, the SDK's chain (AWS_REGION, the profile's region). */
  region?: string;
  /** Another Bedrock runtime URL (a VPC endpoint; a local server in tests). */
  endpointURL?: string;
  /** A named profile of ~/.aws/config and ~/.aws/credentials; else the default chain. */
  profile?: string;
}

/** The runtime's URL for a region, as the endpoint's identity. */
function runtimeURL(options: BedrockChatModelOptions): string {
  if (options.endpointURL) return endpointIdentity(options.endpointURL);
  return `https://bedrock-runtime.${options.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'unset-region'}.amazonaws.com`;
}

/**
 * Amazon Bedrock's Converse API through the official SDK (SigV4 signing, the AWS credential and
 * region chain). The SDK's own retries are off: the runner retries, and records each attempt.
 */
export class BedrockChatModel implements ChatModel {
  readonly provider = 'bedrock';
  readonly capabilities: ChatCapabilities = { prefill: 'none', truncatePrompt: false };
  readonly modelId: string;
  readonly endpoint: string;
  private readonly region: string | undefined;
  private client: Promise<BedrockRuntimeClient> | undefined;

  constructor(private readonly options: BedrockChatModelOptions) {
    this.modelId = options.modelId;
    this.region = options.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
    this.endpoint = runtimeURL(options);
  }

  private async runtime(): Promise<BedrockRuntimeClient> {
    this.client ??= (async () => {
      if (!this.region)
        throw new MedbenchError({
          code: 'CONFIG_INVALID',
          message: `Bedrock model "${this.modelId}" has no region.`,
          hint: 'Give the endpoint "region" in medbench.config.json, or set AWS_REGION.',
        });
      const { BedrockRuntimeClient } = await import('@aws-sdk/client-bedrock-runtime');
      const { NodeHttpHandler } = await import('@smithy/node-http-handler');
      return new BedrockRuntimeClient({
        region: this.region,
        maxAttempts: 1,
        // HTTP/1.1 with keep-alive, as every other provider: Converse needs no HTTP/2 stream.
        requestHandler: new NodeHttpHandler({ connectionTimeout: 3000 }),
        ...(this.options.endpointURL ? { endpoint: this.options.endpointURL } : {}),
        ...(this.options.profile ? { profile: this.options.profile } : {}),
      });
    })();
    return this.client;
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const system = request.messages.filter((message) => message.role === 'system');
    try {
      const { ConverseCommand } = await import('@aws-sdk/client-bedrock-runtime');
      const client = await this.runtime();
      const output = await client.send(
        new ConverseCommand({
          modelId: this.modelId,
          messages: request.messages
            .filter((message) => message.role !== 'system')
            .map((message) => ({
              role: message.role as 'user' | 'assistant',
              content: [{ text: message.content }],
            })),
          ...(system.length > 0 ? { system: system.map((message) => ({ text: message.content })) } : {}),
          inferenceConfig: {
            temperature: request.parameters.temperature,
            maxTokens: request.parameters.maxOutputTokens,
          },
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
      return {
        text: content.map((block) => block.text ?? '').join(''),
        usage:
          usage?.inputTokens !== undefined && usage.outputTokens !== undefined
            ? { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }
            : undefined,
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
