import type { EmbeddingModel } from '../../core/embedding-model.js';
import { MedbenchError } from '../../core/errors.js';
import type { EmbeddingEntry } from '../config-fields.js';
import { dimensionsOf, poolingOf } from '../embedding-options.js';
import { endpointIdentity } from '../endpoint-identity.js';
import type { EmbeddingFactoryOptions } from '../provider-descriptor.js';
import type { OpenAICompatibleEmbeddingModelOptions } from './openai-compatible-embedding-model.js';

/** Where an HTTP embedding model is sent: its baseURL, or OpenAI's API. */
function embeddingBaseUrl(entry: EmbeddingEntry): string {
  return entry.baseURL ?? 'https://api.openai.com/v1';
}

/** The identities of the servers an OpenAI-style entry sends to: its replicas, or its one address. */
export function httpEmbeddingEndpoints(entry: EmbeddingEntry): string[] {
  return (entry.endpoints?.map((endpoint) => endpoint.baseURL) ?? [embeddingBaseUrl(entry)]).map((url) =>
    endpointIdentity(url),
  );
}

/**
 * The options of an OpenAI-style embedding adapter but its address: the key (`defaultKeyEnv` when
 * the entry names none; `keyRequired`: a missing one is an error), headers, batch, encoding.
 */
export function httpEmbeddingOptions(
  options: EmbeddingFactoryOptions<unknown>,
  key: { defaultKeyEnv?: string; keyRequired?: boolean } = {},
): Omit<OpenAICompatibleEmbeddingModelOptions, 'baseURL'> {
  const { entry, overrides } = options;
  poolingOf(options);
  const batchSize = overrides.batchSize ?? entry.batchSize;
  const apiKeyEnv = overrides.apiKeyEnv ?? entry.apiKeyEnv ?? key.defaultKeyEnv;
  const apiKey = apiKeyEnv ? options.readSecret(apiKeyEnv) : undefined;
  if (apiKeyEnv && !apiKey && key.keyRequired && !options.keysDeferred)
    throw new MedbenchError({
      code: 'MISSING_SECRET',
      message: `The environment variable ${apiKeyEnv} is not set.`,
      hint: `Export ${apiKeyEnv}=<your key>; medbench reads keys only from the environment and never stores them.`,
    });
  const encoding = overrides.encoding ?? entry.encodingFormat;
  if (encoding !== undefined && encoding !== 'float' && encoding !== 'base64')
    throw new MedbenchError({ code: 'USAGE', message: `--encoding ${encoding}: use float or base64.` });
  const dimensions = dimensionsOf(options);
  const concurrency = overrides.concurrency ?? entry.concurrency;
  return {
    modelId: entry.model!,
    ...(apiKey ? { apiKey } : {}),
    ...(apiKeyEnv ? { apiKeyEnv } : {}),
    ...options.headers(entry.headers),
    ...(entry.query ? { query: entry.query } : {}),
    ...(batchSize ? { batchSize } : {}),
    ...(concurrency ? { maxParallelCalls: concurrency } : {}),
    ...(dimensions ? { dimensions } : {}),
    ...(entry.sendDimensions !== undefined ? { sendDimensions: entry.sendDimensions } : {}),
    ...(encoding ? { encodingFormat: encoding as 'float' | 'base64' } : {}),
    ...(entry.revision ? { revision: entry.revision } : {}),
  };
}

/**
 * An OpenAI-style embedding model: one server, or replicas each with its own address, key and
 * concurrency (the runner makes them one model).
 */
export async function openAIStyleEmbeddingModel(
  options: EmbeddingFactoryOptions<unknown>,
  key: { defaultKeyEnv?: string; keyRequired?: boolean } = {},
): Promise<EmbeddingModel | EmbeddingModel[]> {
  const common = httpEmbeddingOptions(options, key);
  const { entry } = options;
  const { OpenAICompatibleEmbeddingModel } = await import('./openai-compatible-embedding-model.js');
  if (!entry.endpoints)
    return new OpenAICompatibleEmbeddingModel({ baseURL: embeddingBaseUrl(entry), ...common });
  return entry.endpoints.map((endpoint) => {
    const apiKey = endpoint.apiKeyEnv ? options.readSecret(endpoint.apiKeyEnv) : undefined;
    return new OpenAICompatibleEmbeddingModel({
      ...common,
      baseURL: endpoint.baseURL,
      ...(apiKey ? { apiKey } : {}),
      ...(endpoint.apiKeyEnv ? { apiKeyEnv: endpoint.apiKeyEnv } : {}),
      ...(endpoint.headers ? options.headers(endpoint.headers) : {}),
      ...(endpoint.query ? { query: endpoint.query } : {}),
      maxParallelCalls: endpoint.concurrency ?? common.maxParallelCalls ?? 4,
    });
  });
}
