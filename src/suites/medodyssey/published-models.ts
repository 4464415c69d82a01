import type { CountingType } from './constants.js';

/** The ten published models: display name (as in the paper's tables) and context window. */
export const PUBLISHED_MODELS: Readonly<Record<string, { label: string; contextWindow: number }>> = {
  'gpt-4-turbo-2024-04-09': { label: 'GPT-4', contextWindow: 128000 },
  'gpt-4o': { label: 'GPT-4o', contextWindow: 128000 },
  'claude-3-haiku-20240307': { label: 'Claude 3 Haiku', contextWindow: 200000 },
  'claude-3-sonnet-20240229': { label: 'Claude 3 Sonnet', contextWindow: 200000 },
  'moonshot-v1-128k': { label: 'Moonshot-v1', contextWindow: 128000 },
  'chatglm3-6b-128k': { label: 'ChatGLM3-6b-128k', contextWindow: 128000 },
  'internlm2-chat-7b': { label: 'InternLM2-chat-7b', contextWindow: 200000 },
  'internlm2-chat-20b': { label: 'InternLM2-chat-20b', contextWindow: 200000 },
  'Yi-6B-200K': { label: 'Yi-6b-200k', contextWindow: 200000 },
  'Yarn-Mistral-7b-128k': { label: 'Yarn-Mistral-7b-128k', contextWindow: 128000 },
};

/** The release's Counting type names → medbench's. */
export const COUNTING_TYPE_NAMES: Readonly<Record<string, CountingType>> = {
  acquisition_1: 'repeat',
  acquisition_inc: 'increase',
  acquisition_shuffle: 'shuffle',
  reasoning: 'correction',
};
