import type { ChatModel } from '../../core/chat-model.js';
import { sdkParameters } from '../factory-options.js';
import { type ChatFactoryOptions, defineProvider, type GenerationSetting } from '../provider-descriptor.js';

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
  capabilities: {
    embeddings: true,
    tokenCounting: 'route',
    maxContext: true,
    prefill: 'none',
    logprobs: false,
    restrictedData: 'never (use Vertex AI)',
  },
  generationSettings: GEMINI_SETTINGS,
  createChat: (options) => geminiModel(options),
});
