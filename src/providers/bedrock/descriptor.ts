import { z } from 'zod';
import { BEDROCK_PRICING } from '../anthropic/claude-pricing.js';
import { dimensionsOf, sdkEmbeddingOptions } from '../embedding-options.js';
import { sdkParameters } from '../factory-options.js';
import { APPROVED_REMOTE } from '../openai-compatible/descriptor.js';
import { defineEmbedding, defineProvider } from '../provider-descriptor.js';
import { BEDROCK_BATCH_SETTINGS, batchSettingsOf } from './bedrock-batch-fields.js';
import { runtimeIdentity } from './bedrock-runtime.js';

/** Amazon Bedrock's Converse API, signed (SigV4) with the AWS credential chain. */
export const bedrockProvider = defineProvider({
  name: 'bedrock',
  docs: { title: 'Amazon Bedrock', page: 'bedrock.md', note: 'Converse, SigV4' },
  spec: {
    form: 'bedrock:<model id>[@<region>]',
    note: 'credentials from the AWS chain',
    parse(rest) {
      const match = /^(.+?)(?:@([a-z]{2}(?:-[a-z]+)+-\d))?$/.exec(rest);
      if (!match) return undefined;
      const endpoint: Record<string, string> = match[2] ? { region: match[2] } : {};
      return { provider: 'bedrock', model: match[1]!, endpoints: [endpoint] };
    },
  },
  transport: 'sdk',
  signIn: 'AWS credentials (no key)',
  keyRequired: false,
  settings: {
    /** The AWS region (default: AWS_REGION). */
    region: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region such as eu-central-1')
      .optional(),
    /** A named AWS profile (default: the credential chain). */
    profile: z.string().min(1).optional(),
    ...BEDROCK_BATCH_SETTINGS,
  },
  capabilities: {
    tokenCounting: 'route',
    maxContext: false,
    prefill: 'none',
    logprobs: false,
    restrictedData: APPROVED_REMOTE,
  },
  pricing: BEDROCK_PRICING,
  generationSettings: {
    topP: 'inferenceConfig.topP',
    stop: 'inferenceConfig.stopSequences',
    thinkingBudget: 'additionalModelRequestFields.thinking.budget_tokens',
  },
  claudeThinking: 'claude models',
  async createChat(options) {
    const { BedrockChatModel } = await import('./bedrock-chat-model.js');
    const { region, profile } = options.settings;
    return new BedrockChatModel({
      modelId: options.modelId,
      ...(region ? { region } : {}),
      ...(profile ? { profile } : {}),
      batch: batchSettingsOf(options.settings),
      ...(options.baseURL ? { endpointURL: options.baseURL } : {}),
      ...sdkParameters(options),
    });
  },
  embedding: defineEmbedding({
    name: 'bedrock',
    specForm: 'bedrock:<model>[@<region>]',
    parse(rest) {
      const match = /^(.+?)(?:@([a-z]{2}(?:-[a-z]+)+-\d))?$/.exec(rest);
      if (!match) return undefined;
      return { provider: 'bedrock', model: match[1]!, ...(match[2] ? { region: match[2] } : {}) };
    },
    settings: {
      /** The AWS region and a named profile. */
      region: z.string().min(1).optional(),
      profile: z.string().min(1).optional(),
    },
    endpoints: (entry) => [
      runtimeIdentity({
        ...(entry.region ? { region: entry.region } : {}),
        ...(entry.baseURL ? { endpointURL: entry.baseURL } : {}),
      }),
    ],
    async create(options) {
      const { entry } = options;
      const { BedrockEmbeddingModel } = await import('./bedrock-embedding-model.js');
      const dimensions = dimensionsOf(options);
      return new BedrockEmbeddingModel({
        modelId: entry.model!,
        ...(entry.region ? { region: entry.region } : {}),
        ...(entry.profile ? { profile: entry.profile } : {}),
        ...(entry.baseURL ? { endpointURL: entry.baseURL } : {}),
        ...(dimensions ? { dimensions } : {}),
        ...sdkEmbeddingOptions(options),
      });
    },
  }),
});
