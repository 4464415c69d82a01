import type { ChatModel } from '../core/chat-model.js';
import type { ModelConfig } from './config.js';

/** What a chat provider's factory gets for one endpoint. */
export interface ChatEndpointOptions {
  baseURL: string;
  modelId: string;
  apiKey: string | undefined;
  apiKeyEnv: string | undefined;
  /** Plain-text prompts to /completions (a base model). */
  completions: boolean;
}

/** One chat provider: how its inline spec reads, whether it needs a key, and a lazily loaded factory. */
export interface ChatProviderEntry {
  /** `<provider>:<rest>` of a `--model` spec as a config, or undefined when `rest` does not fit. */
  fromSpec(rest: string): ModelConfig | undefined;
  /** The spec's form, for help texts. */
  specForm: string;
  /** A missing key is an error before anything is sent (paid APIs). */
  keyRequired: boolean;
  create(options: ChatEndpointOptions): Promise<ChatModel>;
}

async function openAICompatible(options: ChatEndpointOptions, serverExtensions: boolean): Promise<ChatModel> {
  const common = {
    baseURL: options.baseURL,
    modelId: options.modelId,
    serverExtensions,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.apiKeyEnv ? { apiKeyEnv: options.apiKeyEnv } : {}),
  };
  if (options.completions) {
    const { OpenAICompatibleCompletionModel } = await import(
      '../providers/openai-compatible-completion-model.js'
    );
    return new OpenAICompatibleCompletionModel(common);
  }
  const { OpenAICompatibleChatModel } = await import('../providers/openai-compatible-chat-model.js');
  return new OpenAICompatibleChatModel(common);
}

/**
 * The chat providers by name: the config's `provider` and the prefix of an inline `--model` spec.
 * A new provider is one entry here (and its adapter in src/providers/).
 */
export const CHAT_PROVIDERS: Readonly<Record<ModelConfig['provider'], ChatProviderEntry>> = {
  'openai-compatible': {
    specForm: 'openai-compatible:<model>@<base URL>',
    keyRequired: false,
    fromSpec(rest) {
      // The URL starts at the first "@http(s)://" (it may itself hold user info with an "@").
      const at = rest.search(/@https?:\/\//i);
      const model = rest.slice(0, Math.max(at, 0));
      return at > 0 && model
        ? { provider: 'openai-compatible', model, endpoints: [{ baseURL: rest.slice(at + 1) }] }
        : undefined;
    },
    create: (options) => openAICompatible(options, true),
  },
  openai: {
    specForm: 'openai:<model>',
    keyRequired: true,
    fromSpec: (rest) =>
      rest
        ? {
            provider: 'openai',
            model: rest,
            endpoints: [{ baseURL: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' }],
          }
        : undefined,
    create: (options) => openAICompatible(options, false),
  },
  anthropic: {
    specForm: 'anthropic:<model>',
    keyRequired: true,
    fromSpec: (rest) =>
      rest
        ? {
            provider: 'anthropic',
            model: rest,
            endpoints: [{ baseURL: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY' }],
          }
        : undefined,
    // Anthropic has no completions API: a base-model flag does not apply.
    async create(options) {
      const { AnthropicChatModel } = await import('../providers/anthropic-chat-model.js');
      return new AnthropicChatModel({
        baseURL: options.baseURL,
        modelId: options.modelId,
        apiKey: options.apiKey ?? '',
        ...(options.apiKeyEnv ? { apiKeyEnv: options.apiKeyEnv } : {}),
      });
    },
  },
  baseline: {
    specForm: 'baseline:extractive',
    keyRequired: false,
    fromSpec: (rest) =>
      rest === '' || rest === 'extractive' ? { provider: 'baseline', model: 'extractive' } : undefined,
    async create() {
      const { ExtractiveBaselineChatModel } = await import('../providers/extractive-baseline-chat-model.js');
      return new ExtractiveBaselineChatModel();
    },
  },
};
