import { anthropicWire } from './anthropic.js';
import { azureOpenAIWire } from './azure-openai.js';
import { bedrockWire } from './bedrock.js';
import { geminiWire, vertexAIWire } from './gemini.js';
import { ollamaWire } from './ollama.js';
import { openAICompatibleWire } from './openai-compatible.js';
import type { ProviderName, ProviderWire } from './wire.js';

/** Each provider the LLM test server stands in for, and its wire format. */
export const PROVIDER_WIRES: Record<ProviderName, ProviderWire> = {
  'openai-compatible': openAICompatibleWire,
  'azure-openai': azureOpenAIWire,
  anthropic: anthropicWire,
  bedrock: bedrockWire,
  gemini: geminiWire,
  'vertex-ai': vertexAIWire,
  ollama: ollamaWire,
};

/** Every provider the LLM test server can stand in for. */
export const PROVIDER_NAMES = Object.keys(PROVIDER_WIRES) as ProviderName[];
