import { MedbenchError } from '../../core/errors.js';
import { sdkEmbeddingOptions } from '../embedding-options.js';
import { endpointIdentity } from '../endpoint-identity.js';
import { httpOptions } from '../factory-options.js';
import { APPROVED_REMOTE } from '../openai-compatible/descriptor.js';
import { defineEmbedding, defineProvider } from '../provider-descriptor.js';
import { OLLAMA_DEFAULT_URL } from './ollama-default-url.js';

/** Ollama's native API (num_ctx set, /api/show asked first). */
export const ollamaProvider = defineProvider({
  name: 'ollama',
  docs: { title: 'Ollama', page: 'ollama.md', note: 'native API' },
  spec: {
    form: 'ollama:<model>[@<base URL>]',
    note: `default ${OLLAMA_DEFAULT_URL}`,
    parse(rest) {
      const at = rest.search(/@https?:\/\//i);
      const model = at >= 0 ? rest.slice(0, at) : rest;
      return model
        ? {
            provider: 'ollama',
            model,
            endpoints: [{ baseURL: at >= 0 ? rest.slice(at + 1) : OLLAMA_DEFAULT_URL }],
          }
        : undefined;
    },
  },
  transport: 'http',
  signIn: 'none (a key if a proxy asks)',
  keyRequired: false,
  capabilities: {
    tokenCounting: 'none',
    maxContext: true,
    prefill: 'none',
    logprobs: false,
    restrictedData: `on this machine; elsewhere ${APPROVED_REMOTE}`,
  },
  generationSettings: {
    topP: 'options.top_p',
    seed: 'options.seed',
    stop: 'options.stop',
    frequencyPenalty: 'options.frequency_penalty',
    presencePenalty: 'options.presence_penalty',
    extraBody: 'merged into the JSON body',
  },
  ownBodyFields: ['model', 'messages', 'stream', 'options'],
  async createChat(options) {
    if (options.contextWindow === undefined)
      throw new MedbenchError({
        code: 'USAGE',
        message: `Ollama's "${options.modelId}" needs a context window: medbench sends it as num_ctx, as Ollama otherwise keeps its small default and silently cuts longer prompts.`,
        hint: 'Give --context-window <tokens> (or "contextWindow" in medbench.config.json); a run that first checks the model tells its maximum.',
      });
    const { OllamaChatModel } = await import('./ollama-chat-model.js');
    return new OllamaChatModel({
      baseURL: options.baseURL,
      modelId: options.modelId,
      contextWindow: options.contextWindow,
      ...httpOptions(options),
    });
  },
  embedding: defineEmbedding({
    name: 'ollama',
    specForm: 'ollama:<model>[@<url>]',
    parse(rest) {
      const match = /^(.+?)(?:@(https?:\/\/.+))?$/.exec(rest);
      return match
        ? { provider: 'ollama', model: match[1]!, baseURL: match[2] ?? OLLAMA_DEFAULT_URL }
        : undefined;
    },
    endpoints: (entry) => [endpointIdentity(entry.baseURL ?? OLLAMA_DEFAULT_URL)],
    async create(options) {
      const { OllamaEmbeddingModel } = await import('./ollama-embedding-model.js');
      return new OllamaEmbeddingModel({
        baseURL: options.entry.baseURL ?? OLLAMA_DEFAULT_URL,
        modelId: options.entry.model!,
        ...sdkEmbeddingOptions(options),
      });
    },
  }),
});
