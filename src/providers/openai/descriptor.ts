import { OPENAI_STYLE_SETTINGS, openAICompatibleModel } from '../openai-compatible/descriptor.js';
import { httpEmbeddingEndpoints, openAIStyleEmbeddingModel } from '../openai-compatible/embedding-factory.js';
import { OPENAI_PRICING } from '../openai-compatible/openai-pricing.js';
import { defineEmbedding, defineProvider } from '../provider-descriptor.js';

/** OpenAI's own API: the OpenAI-compatible adapter without vLLM's extensions. */
export const openAIProvider = defineProvider({
  name: 'openai',
  docs: { title: 'OpenAI', page: 'openai.md' },
  spec: {
    form: 'openai:<model>',
    parse: (rest) =>
      rest
        ? {
            provider: 'openai',
            model: rest,
            endpoints: [{ baseURL: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' }],
          }
        : undefined,
  },
  transport: 'http',
  signIn: 'key (OPENAI_API_KEY)',
  keyRequired: true,
  capabilities: {
    tokenCounting: 'local tokenizer',
    maxContext: false,
    prefill: 'none',
    logprobs: false,
    restrictedData: 'never (PhysioNet forbids it)',
  },
  pricing: OPENAI_PRICING,
  generationSettings: OPENAI_STYLE_SETTINGS,
  reasoningModelsByName: true,
  createChat: (options) => openAICompatibleModel(options, false),
  embedding: defineEmbedding({
    name: 'openai',
    specForm: 'openai:<model>',
    parse: (rest) => ({ provider: 'openai', model: rest }),
    endpoints: httpEmbeddingEndpoints,
    create: (options) =>
      openAIStyleEmbeddingModel(options, { defaultKeyEnv: 'OPENAI_API_KEY', keyRequired: true }),
  }),
});
