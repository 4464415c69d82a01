import { anthropicProvider } from './anthropic/descriptor.js';
import { azureOpenAIProvider } from './azure-openai/descriptor.js';
import { baselineProvider } from './baselines/descriptor.js';
import { bedrockProvider } from './bedrock/descriptor.js';
import { geminiProvider } from './gemini/descriptor.js';
import { ggufProvider } from './gguf/descriptor.js';
import { localOnnxEmbedding } from './local-onnx/descriptor.js';
import { ollamaProvider } from './ollama/descriptor.js';
import { openAIProvider } from './openai/descriptor.js';
import { openAICompatibleProvider } from './openai-compatible/descriptor.js';
import type { EmbeddingDescriptor, ProviderDescriptor } from './provider-descriptor.js';
import { vertexAIProvider } from './vertex-ai/descriptor.js';

/**
 * Every provider, one line each, in the order `medbench providers` and the docs list them. A new
 * provider is a folder under src/providers/ exporting its descriptor, and a line here.
 */
export const PROVIDERS = [
  openAICompatibleProvider,
  openAIProvider,
  anthropicProvider,
  azureOpenAIProvider,
  bedrockProvider,
  geminiProvider,
  vertexAIProvider,
  ollamaProvider,
  ggufProvider,
  baselineProvider,
] as const satisfies readonly ProviderDescriptor[];

/**
 * The embedding models' providers (MedEureka's `embeddingModels` and inline specs): each chat
 * provider's that has them, and those that have only embedding models, one line each.
 */
export const EMBEDDING_PROVIDERS: readonly EmbeddingDescriptor[] = [
  ...PROVIDERS.flatMap((provider): EmbeddingDescriptor[] => (provider.embedding ? [provider.embedding] : [])),
  localOnnxEmbedding,
];

/** The registry a caller passes: medbench's providers, or those and its own (`providersWith`). */
export type ProviderRegistry = readonly ProviderDescriptor[];

/** medbench's providers and `extra` ones (a library user's, a test's); a name may be taken once. */
export function providersWith(extra: readonly ProviderDescriptor[]): ProviderRegistry {
  const names = new Set<string>(PROVIDERS.map((provider) => provider.name));
  for (const provider of extra) {
    if (names.has(provider.name))
      throw new Error(`A provider named "${provider.name}" is registered already.`);
    names.add(provider.name);
  }
  return [...PROVIDERS, ...extra];
}

/** The descriptor of `name` in `providers`, or undefined. */
export function providerNamed(
  name: string,
  providers: ProviderRegistry = PROVIDERS,
): ProviderDescriptor | undefined {
  return providers.find((provider) => provider.name === name);
}
