import type { ChatModel } from '../../core/chat-model.js';
import { httpOptions } from '../factory-options.js';
import {
  type ChatFactoryOptions,
  defineEmbedding,
  defineProvider,
  type GenerationSetting,
} from '../provider-descriptor.js';
import { httpEmbeddingEndpoints, openAIStyleEmbeddingModel } from './embedding-factory.js';
import { OPENAI_COMPATIBLE_PRICING } from './openai-pricing.js';

/** Where a restricted dataset may go through an endpoint that is not on this machine. */
export const APPROVED_REMOTE = 'only when its endpoint is approved in the config (restrictedDataApproved)';

/** What OpenAI's chat API (and every server that copies it) takes, under OpenAI's names. */
export const OPENAI_STYLE_SETTINGS: Partial<Record<GenerationSetting, string>> = {
  topP: 'top_p',
  seed: 'seed',
  stop: 'stop',
  frequencyPenalty: 'frequency_penalty',
  presencePenalty: 'presence_penalty',
  extraBody: 'merged into the JSON body',
  reasoningModel: 'max_completion_tokens, no temperature',
  reasoningEffort: 'reasoning_effort',
};

/** The chat or completions adapter of an OpenAI-style server (`serverExtensions`: vLLM's, not OpenAI's). */
export async function openAICompatibleModel(
  options: ChatFactoryOptions<unknown>,
  serverExtensions: boolean,
): Promise<ChatModel> {
  const common = {
    baseURL: options.baseURL,
    modelId: options.modelId,
    serverExtensions,
    // OpenAI's own API routes by prompt_cache_key; vLLM and the like cache by prefix alone.
    promptCacheKey: !serverExtensions,
    // OpenAI's own list is complete: a model it lacks does not exist for this key.
    modelList: serverExtensions ? ('partial' as const) : ('complete' as const),
    // OpenAI's own API has the Files and Batch API; a vLLM-style server does not.
    batchApi: !serverExtensions,
    ...httpOptions(options),
  };
  if (options.completions) {
    const { OpenAICompatibleCompletionModel } = await import('./openai-compatible-completion-model.js');
    return new OpenAICompatibleCompletionModel(common);
  }
  const { OpenAICompatibleChatModel } = await import('./openai-compatible-chat-model.js');
  return new OpenAICompatibleChatModel(common);
}

/** Any server speaking OpenAI's API: vLLM, SGLang, llama.cpp's server, TGI, LiteLLM, a gateway. */
export const openAICompatibleProvider = defineProvider({
  name: 'openai-compatible',
  docs: {
    title: 'OpenAI-compatible',
    page: 'openai-compatible.md',
    note: 'vLLM, SGLang, llama.cpp, TGI, LiteLLM, a gateway',
  },
  spec: {
    form: 'openai-compatible:<model>@<base URL>',
    parse(rest) {
      // The URL starts at the first "@http(s)://" (it may itself hold user info with an "@").
      const at = rest.search(/@https?:\/\//i);
      const model = rest.slice(0, Math.max(at, 0));
      return at > 0 && model
        ? { provider: 'openai-compatible', model, endpoints: [{ baseURL: rest.slice(at + 1) }] }
        : undefined;
    },
  },
  transport: 'http',
  signIn: 'a key if the server asks (apiKeyEnv)',
  keyRequired: false,
  capabilities: {
    tokenCounting: 'route (vLLM)',
    maxContext: true,
    prefill: 'continue (vLLM)',
    logprobs: false,
    restrictedData: `on this machine; elsewhere ${APPROVED_REMOTE}`,
  },
  pricing: OPENAI_COMPATIBLE_PRICING,
  generationSettings: OPENAI_STYLE_SETTINGS,
  createChat: (options) => openAICompatibleModel(options, true),
  embedding: defineEmbedding({
    name: 'openai-compatible',
    specForm: 'openai-compatible:<model>@<base URL>',
    parse(rest) {
      const match = /^(.+)@(https?:\/\/.+)$/.exec(rest);
      return match ? { provider: 'openai-compatible', model: match[1]!, baseURL: match[2]! } : undefined;
    },
    check: (entry) =>
      (entry.baseURL !== undefined) !== (entry.endpoints !== undefined)
        ? undefined
        : 'openai-compatible needs "baseURL", or "endpoints" for several replicas (not both)',
    endpoints: httpEmbeddingEndpoints,
    create: (options) => openAIStyleEmbeddingModel(options),
  }),
});
