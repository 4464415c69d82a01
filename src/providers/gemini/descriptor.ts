import type { ChatModel } from '../../core/chat-model.js';
import type { EmbeddingModel } from '../../core/embedding-model.js';
import { MedbenchError } from '../../core/errors.js';
import type { EmbeddingEntry } from '../config-fields.js';
import { dimensionsOf, sdkEmbeddingOptions } from '../embedding-options.js';
import { sdkParameters } from '../factory-options.js';
import {
  type ChatFactoryOptions,
  defineEmbedding,
  defineProvider,
  type EmbeddingFactoryOptions,
  type GenerationSetting,
} from '../provider-descriptor.js';
import { geminiIdentity, loadGeminiSdk } from './gemini-client.js';
import { GEMINI_PRICING } from './gemini-pricing.js';

/** What Gemini's generationConfig takes (the Gemini API and Vertex AI alike). */
export const GEMINI_SETTINGS: Partial<Record<GenerationSetting, string>> = {
  topP: 'topP',
  seed: 'seed',
  stop: 'stopSequences',
  frequencyPenalty: 'frequencyPenalty',
  presencePenalty: 'presencePenalty',
  thinkingBudget: 'thinkingConfig.thinkingBudget',
};

/** Gemini: the Gemini API with a key, or Vertex AI (project and location) with ADC. */
export async function geminiModel(
  options: ChatFactoryOptions<unknown>,
  vertex?: { project: string; location: string },
): Promise<ChatModel> {
  const { GeminiChatModel } = await import('./gemini-chat-model.js');
  return new GeminiChatModel({
    modelId: options.modelId,
    ...(vertex ? { vertex } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.apiKeyEnv ? { apiKeyEnv: options.apiKeyEnv } : {}),
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    ...sdkParameters(options),
  });
}

type VertexPlace = { project?: string | undefined; location?: string | undefined };

/** Vertex AI's project and location, when an entry names both. */
function vertexOf(entry: VertexPlace): { vertex?: { project: string; location: string } } {
  return entry.project && entry.location
    ? { vertex: { project: entry.project, location: entry.location } }
    : {};
}

/** The server a Gemini or Vertex AI embedding entry sends to. */
export function geminiEmbeddingEndpoint(entry: EmbeddingEntry & VertexPlace): string[] {
  return [geminiIdentity({ ...vertexOf(entry), ...(entry.baseURL ? { baseURL: entry.baseURL } : {}) })];
}

/** A Gemini API embedding model (`keyEnv`: the key's default variable), or Vertex AI's (no key). */
export async function geminiEmbeddingModel(
  options: EmbeddingFactoryOptions<VertexPlace>,
  keyEnv?: string,
): Promise<EmbeddingModel> {
  const { entry } = options;
  const { GeminiEmbeddingModel } = await import('./gemini-embedding-model.js');
  const apiKeyEnv = options.overrides.apiKeyEnv ?? entry.apiKeyEnv ?? keyEnv;
  // The SDK before the key: installing comes before configuring.
  if (!options.keysDeferred) await loadGeminiSdk();
  const apiKey = keyEnv && apiKeyEnv ? options.readSecret(apiKeyEnv) : undefined;
  if (keyEnv && !apiKey && !options.keysDeferred)
    throw new MedbenchError({
      code: 'MISSING_SECRET',
      message: `The environment variable ${apiKeyEnv} is not set.`,
      hint: `Export ${apiKeyEnv} with your Gemini API key (medbench never stores it).`,
    });
  const dimensions = dimensionsOf(options);
  return new GeminiEmbeddingModel({
    modelId: entry.model!,
    ...vertexOf(entry),
    ...(apiKey ? { apiKey } : {}),
    ...(apiKeyEnv ? { apiKeyEnv } : {}),
    ...(entry.baseURL ? { baseURL: entry.baseURL } : {}),
    ...(dimensions ? { dimensions } : {}),
    ...sdkEmbeddingOptions(options),
  });
}

/** The Gemini API (generativelanguage.googleapis.com), with a key. */
export const geminiProvider = defineProvider({
  name: 'gemini',
  docs: { title: 'Google Gemini API', page: 'gemini.md' },
  spec: {
    form: 'gemini:<model>',
    note: 'GEMINI_API_KEY',
    parse: (rest) =>
      rest ? { provider: 'gemini', model: rest, endpoints: [{ apiKeyEnv: 'GEMINI_API_KEY' }] } : undefined,
  },
  transport: 'sdk',
  signIn: 'key (GEMINI_API_KEY)',
  keyRequired: true,
  loadPart: loadGeminiSdk,
  capabilities: {
    tokenCounting: 'route',
    maxContext: true,
    prefill: 'none',
    logprobs: false,
    restrictedData: 'never (use Vertex AI)',
  },
  pricing: GEMINI_PRICING,
  generationSettings: GEMINI_SETTINGS,
  createChat: (options) => geminiModel(options),
  embedding: defineEmbedding({
    name: 'gemini',
    specForm: 'gemini:<model>',
    parse: (rest) => (rest ? { provider: 'gemini', model: rest, apiKeyEnv: 'GEMINI_API_KEY' } : undefined),
    endpoints: geminiEmbeddingEndpoint,
    create: (options) => geminiEmbeddingModel(options, 'GEMINI_API_KEY'),
  }),
});
