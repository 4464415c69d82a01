import { z } from 'zod';
import { sdkParameters } from '../factory-options.js';
import { APPROVED_REMOTE } from '../openai-compatible/descriptor.js';
import { defineProvider } from '../provider-descriptor.js';

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
  },
  capabilities: {
    embeddings: true,
    tokenCounting: 'route',
    maxContext: false,
    prefill: 'none',
    logprobs: false,
    restrictedData: APPROVED_REMOTE,
  },
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
      ...(options.baseURL ? { endpointURL: options.baseURL } : {}),
      ...sdkParameters(options),
    });
  },
});
