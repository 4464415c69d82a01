import { httpOptions } from '../factory-options.js';
import { APPROVED_REMOTE } from '../openai-compatible/descriptor.js';
import { defineProvider } from '../provider-descriptor.js';
import { ANTHROPIC_PRICING } from './claude-pricing.js';

/** Anthropic's Messages API. */
export const anthropicProvider = defineProvider({
  name: 'anthropic',
  docs: { title: 'Anthropic', page: 'anthropic.md' },
  spec: {
    form: 'anthropic:<model>',
    parse: (rest) =>
      rest
        ? {
            provider: 'anthropic',
            model: rest,
            endpoints: [{ baseURL: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY' }],
          }
        : undefined,
  },
  transport: 'http',
  signIn: 'key (ANTHROPIC_API_KEY)',
  keyRequired: true,
  capabilities: {
    tokenCounting: 'route',
    maxContext: false,
    prefill: 'trimmed',
    logprobs: false,
    restrictedData: APPROVED_REMOTE,
  },
  pricing: ANTHROPIC_PRICING,
  generationSettings: {
    topP: 'top_p',
    stop: 'stop_sequences',
    extraBody: 'merged into the JSON body',
    thinkingBudget: 'thinking: { type: "enabled", budget_tokens }',
  },
  ownBodyFields: [
    'model',
    'messages',
    'system',
    'stream',
    'max_tokens',
    'temperature',
    'top_p',
    'stop_sequences',
    'thinking',
  ],
  claudeThinking: 'every model',
  // Anthropic has no completions API: a base-model flag does not apply.
  async createChat(options) {
    const { AnthropicChatModel } = await import('./anthropic-chat-model.js');
    return new AnthropicChatModel({
      baseURL: options.baseURL,
      modelId: options.modelId,
      thinking: options.parameters.thinkingBudget !== undefined,
      ...httpOptions(options),
      apiKey: options.apiKey ?? '',
    });
  },
});
