import type { EmbeddingModel } from '../core/embedding-model.js';
import { MedbenchError } from '../core/errors.js';
import { runtimeIdentity } from '../providers/bedrock/bedrock-runtime.js';
import { endpointIdentity } from '../providers/endpoint-identity.js';
import { geminiIdentity } from '../providers/gemini/gemini-client.js';
import { OLLAMA_DEFAULT_URL } from '../providers/ollama/ollama-default-url.js';
import type { EmbeddingModelConfig } from './config.js';
import { endpointHeaders } from './endpoint-headers.js';
import { rememberSecret } from './known-secrets.js';

type CloudProvider = 'ollama' | 'bedrock' | 'gemini' | 'vertex-ai';

export function isCloudEmbedding(
  config: EmbeddingModelConfig,
): config is EmbeddingModelConfig & { provider: CloudProvider } {
  return ['ollama', 'bedrock', 'gemini', 'vertex-ai'].includes(config.provider);
}

/** `ollama:<model>[@<url>]`, `bedrock:<model>[@<region>]`, `gemini:<model>`, `vertex-ai:<model>@<project>/<location>`. */
export function cloudEmbeddingSpec(spec: string): EmbeddingModelConfig | undefined {
  const ollama = /^ollama:(.+?)(?:@(https?:\/\/.+))?$/.exec(spec);
  if (ollama) return { provider: 'ollama', model: ollama[1]!, baseURL: ollama[2] ?? OLLAMA_DEFAULT_URL };
  const bedrock = /^bedrock:(.+?)(?:@([a-z]{2}(?:-[a-z]+)+-\d))?$/.exec(spec);
  if (bedrock)
    return { provider: 'bedrock', model: bedrock[1]!, ...(bedrock[2] ? { region: bedrock[2] } : {}) };
  const vertex = /^vertex-ai:(.+)@([^/@]+)\/([a-z0-9-]+)$/.exec(spec);
  if (vertex) return { provider: 'vertex-ai', model: vertex[1]!, project: vertex[2]!, location: vertex[3]! };
  if (spec.startsWith('gemini:') && spec.length > 'gemini:'.length)
    return { provider: 'gemini', model: spec.slice('gemini:'.length), apiKeyEnv: 'GEMINI_API_KEY' };
  return undefined;
}

/** The endpoint identity a cloud embedding config sends to (for the restricted-data check). */
export function cloudEmbeddingEndpoint(config: EmbeddingModelConfig & { provider: CloudProvider }): string {
  switch (config.provider) {
    case 'ollama':
      return endpointIdentity(config.baseURL ?? OLLAMA_DEFAULT_URL);
    case 'bedrock':
      return runtimeIdentity({
        ...(config.region ? { region: config.region } : {}),
        ...(config.baseURL ? { endpointURL: config.baseURL } : {}),
      });
    default:
      return geminiIdentity({
        ...(config.project && config.location
          ? { vertex: { project: config.project, location: config.location } }
          : {}),
        ...(config.baseURL ? { baseURL: config.baseURL } : {}),
      });
  }
}

/** The embedding model of an Ollama, Bedrock, Gemini or Vertex AI config (lazily loaded). */
export async function cloudEmbeddingModel(
  config: EmbeddingModelConfig & { provider: CloudProvider },
  options: {
    dimensions?: number | undefined;
    concurrency?: number | undefined;
    apiKeyEnv?: string | undefined;
  },
  environment: NodeJS.ProcessEnv,
): Promise<EmbeddingModel> {
  const modelId = config.model!;
  const common = {
    ...(options.concurrency ? { maxParallelCalls: options.concurrency } : {}),
    // Fixed headers and the query are part of the endpoint's identity; secret headers are not.
    ...endpointHeaders(config.headers, environment),
    ...(config.query ? { query: config.query } : {}),
  };
  if (config.provider === 'ollama') {
    const { OllamaEmbeddingModel } = await import('../providers/ollama/ollama-embedding-model.js');
    return new OllamaEmbeddingModel({ baseURL: config.baseURL ?? OLLAMA_DEFAULT_URL, modelId, ...common });
  }
  if (config.provider === 'bedrock') {
    const { BedrockEmbeddingModel } = await import('../providers/bedrock/bedrock-embedding-model.js');
    return new BedrockEmbeddingModel({
      modelId,
      ...(config.region ? { region: config.region } : {}),
      ...(config.profile ? { profile: config.profile } : {}),
      ...(config.baseURL ? { endpointURL: config.baseURL } : {}),
      ...(options.dimensions ? { dimensions: options.dimensions } : {}),
      ...common,
    });
  }
  const { GeminiEmbeddingModel } = await import('../providers/gemini/gemini-embedding-model.js');
  const apiKeyEnv =
    options.apiKeyEnv ?? config.apiKeyEnv ?? (config.provider === 'gemini' ? 'GEMINI_API_KEY' : undefined);
  const apiKey = config.provider === 'gemini' && apiKeyEnv ? environment[apiKeyEnv] : undefined;
  rememberSecret(apiKey);
  if (config.provider === 'gemini' && !apiKey)
    throw new MedbenchError({
      code: 'MISSING_SECRET',
      message: `The environment variable ${apiKeyEnv} is not set.`,
      hint: `Export ${apiKeyEnv} with your Gemini API key (medbench never stores it).`,
    });
  return new GeminiEmbeddingModel({
    modelId,
    ...(config.project && config.location
      ? { vertex: { project: config.project, location: config.location } }
      : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(apiKeyEnv ? { apiKeyEnv } : {}),
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    ...(options.dimensions ? { dimensions: options.dimensions } : {}),
    ...common,
  });
}
