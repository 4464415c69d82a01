import type { EmbeddingModel } from '../core/embedding-model.js';
import { MedbenchError } from '../core/errors.js';
import type { Retriever } from '../core/retriever.js';
import { endpointIdentity } from '../providers/endpoint-identity.js';
import type { Pooling } from '../providers/local-onnx/local-onnx-embedding-model.js';
import type { OpenAICompatibleEmbeddingModelOptions } from '../providers/openai-compatible/openai-compatible-embedding-model.js';
import { DenseRetriever } from '../runner/dense-retriever.js';
import type { RetryPolicy } from '../runner/retry.js';
import type { EmbeddingCache } from '../store/embedding-cache.js';
import {
  cloudEmbeddingEndpoint,
  cloudEmbeddingModel,
  cloudEmbeddingSpec,
  isCloudEmbedding,
} from './cloud-embedding-models.js';
import type { EmbeddingModelConfig, MedbenchConfig } from './config.js';
import { endpointHeaders } from './endpoint-headers.js';
import { rememberSecret } from './known-secrets.js';
import { type DataRestriction, refuseUnapproved } from './restricted-data.js';

export interface RetrieverOverrides {
  instruction?: string;
  pooling?: string;
  batchSize?: number;
  concurrency?: number;
  dimensions?: number;
  encoding?: string;
  apiKeyEnv?: string;
  maxLength?: number;
}

function usage(spec: string, hint: string): MedbenchError {
  return new MedbenchError({
    code: 'MODEL_SPEC_INVALID',
    message: `"${spec}" is not a retriever medbench can run.`,
    hint,
  });
}

const SPEC_HINT =
  'Retrievers: bm25 (bm25:k1=1.5,b=0.75), lsa (lsa:<dimensions>), a name from embeddingModels in medbench.config.json, openai:<model>, openai-compatible:<model>@<base URL>, onnx:<model folder>, ollama:<model>[@<url>], bedrock:<model>[@<region>], gemini:<model>, vertex-ai:<model>@<project>/<location>.';

/** The retrievers that need no model, by name: how `<name>:<argument>` reads, and a lazy factory. */
const SPARSE_RETRIEVERS: Readonly<
  Record<
    string,
    {
      parse(argument: string | undefined): Record<string, number> | undefined;
      create(options: Record<string, number>): Promise<Retriever>;
    }
  >
> = {
  bm25: {
    parse(argument) {
      const options: Record<string, number> = {};
      for (const pair of (argument ?? '').split(',').filter(Boolean)) {
        const [key, value] = pair.split('=');
        if ((key !== 'k1' && key !== 'b') || !Number.isFinite(Number(value))) return undefined;
        options[key] = Number(value);
      }
      return options;
    },
    async create(options) {
      const { Bm25Retriever } = await import('../providers/retrievers/bm25-retriever.js');
      return new Bm25Retriever(options);
    },
  },
  lsa: {
    parse(argument): Record<string, number> | undefined {
      if (argument === undefined) return {};
      return Number(argument) > 0 ? { dimensions: Number(argument) } : undefined;
    },
    async create(options) {
      const { LsaRetriever } = await import('../providers/retrievers/lsa-retriever.js');
      return new LsaRetriever(options);
    },
  },
};

/**
 * Parses `bm25`, `bm25:k1=1.2,b=0.75`, `lsa`, `lsa:256` into a registry name and its options;
 * undefined for a spec that names no sparse retriever, an error for one that names it badly.
 */
export function sparseRetrieverSpec(
  spec: string,
): { name: string; options: Record<string, number> } | undefined {
  const [name, argument] = spec.split(':');
  if (name === undefined || !Object.hasOwn(SPARSE_RETRIEVERS, name)) return undefined;
  const options = SPARSE_RETRIEVERS[name]!.parse(argument);
  if (!options) throw usage(spec, SPEC_HINT);
  return { name, options };
}

/** The embedding-model config a spec names: a config entry, or an inline provider spec. */
export function embeddingConfigFromSpec(spec: string, config: MedbenchConfig): EmbeddingModelConfig {
  const named = config.embeddingModels[spec];
  if (named) return named;
  if (spec.startsWith('openai:')) return { provider: 'openai', model: spec.slice('openai:'.length) };
  if (spec.startsWith('onnx:')) return { provider: 'local-onnx', folder: spec.slice('onnx:'.length) };
  const compatible = /^openai-compatible:(.+)@(https?:\/\/.+)$/.exec(spec);
  if (compatible) return { provider: 'openai-compatible', model: compatible[1]!, baseURL: compatible[2]! };
  const cloudSpec = cloudEmbeddingSpec(spec);
  if (cloudSpec) return cloudSpec;
  throw usage(spec, SPEC_HINT);
}

/** Where an HTTP embedding model is sent: its baseURL, or OpenAI's API. */
function embeddingBaseUrl(config: EmbeddingModelConfig): string {
  return config.baseURL ?? 'https://api.openai.com/v1';
}

/** What makes the embedding model of a config, by provider (lazily loaded). */
const EMBEDDING_PROVIDERS: Readonly<
  Record<
    EmbeddingModelConfig['provider'],
    (
      config: EmbeddingModelConfig,
      overrides: RetrieverOverrides,
      environment: NodeJS.ProcessEnv,
    ) => Promise<EmbeddingModel>
  >
> = {
  'local-onnx': async (config, overrides) => {
    const { LocalOnnxEmbeddingModel } = await import('../providers/local-onnx/local-onnx-embedding-model.js');
    const pooling = poolingOf(config, overrides);
    const batchSize = overrides.batchSize ?? config.batchSize;
    const maxLength = overrides.maxLength ?? config.maxLength;
    return new LocalOnnxEmbeddingModel({
      folder: config.folder!,
      ...(pooling ? { pooling } : {}),
      ...(batchSize ? { batchSize } : {}),
      ...(maxLength ? { maxLength } : {}),
      ...(config.label ? { modelId: config.label } : {}),
    });
  },
  openai: (config, overrides, environment) => httpEmbeddingModel(config, overrides, environment),
  'openai-compatible': (config, overrides, environment) => httpEmbeddingModel(config, overrides, environment),
  'azure-openai': (config, overrides, environment) => httpEmbeddingModel(config, overrides, environment),
  ollama: (config, overrides, environment) => cloud(config, overrides, environment),
  bedrock: (config, overrides, environment) => cloud(config, overrides, environment),
  gemini: (config, overrides, environment) => cloud(config, overrides, environment),
  'vertex-ai': (config, overrides, environment) => cloud(config, overrides, environment),
};

function cloud(config: EmbeddingModelConfig, overrides: RetrieverOverrides, environment: NodeJS.ProcessEnv) {
  if (!isCloudEmbedding(config)) throw new Error(`not a cloud embedding provider: ${config.provider}`);
  return cloudEmbeddingModel(
    config,
    {
      dimensions: overrides.dimensions ?? config.dimensions,
      concurrency: overrides.concurrency ?? config.concurrency,
      apiKeyEnv: overrides.apiKeyEnv,
    },
    environment,
  );
}

function poolingOf(config: EmbeddingModelConfig, overrides: RetrieverOverrides): Pooling | undefined {
  const pooling = (overrides.pooling ?? config.pooling) as Pooling | undefined;
  if (pooling !== undefined && !['cls', 'mean', 'last-token'].includes(pooling))
    throw new MedbenchError({ code: 'USAGE', message: `--pooling ${pooling}: use cls, mean or last-token.` });
  return pooling;
}

async function httpEmbeddingModel(
  config: EmbeddingModelConfig,
  overrides: RetrieverOverrides,
  environment: NodeJS.ProcessEnv,
): Promise<EmbeddingModel> {
  poolingOf(config, overrides);
  const batchSize = overrides.batchSize ?? config.batchSize;
  const apiKeyEnv =
    overrides.apiKeyEnv ?? config.apiKeyEnv ?? (config.provider === 'openai' ? 'OPENAI_API_KEY' : undefined);
  const apiKey = apiKeyEnv ? environment[apiKeyEnv] : undefined;
  rememberSecret(apiKey);
  if (apiKeyEnv && !apiKey && config.provider === 'openai')
    throw new MedbenchError({
      code: 'MISSING_SECRET',
      message: `The environment variable ${apiKeyEnv} is not set.`,
      hint: `Export ${apiKeyEnv}=<your key>; medbench reads keys only from the environment and never stores them.`,
    });
  const encoding = overrides.encoding ?? config.encodingFormat;
  if (encoding !== undefined && encoding !== 'float' && encoding !== 'base64')
    throw new MedbenchError({ code: 'USAGE', message: `--encoding ${encoding}: use float or base64.` });
  const dimensions = overrides.dimensions ?? config.dimensions;
  const concurrency = overrides.concurrency ?? config.concurrency;
  const common: Omit<OpenAICompatibleEmbeddingModelOptions, 'baseURL'> = {
    modelId: config.model!,
    ...(apiKey ? { apiKey } : {}),
    ...(apiKeyEnv ? { apiKeyEnv } : {}),
    ...endpointHeaders(config.headers, environment),
    ...(config.query ? { query: config.query } : {}),
    ...(batchSize ? { batchSize } : {}),
    ...(concurrency ? { maxParallelCalls: concurrency } : {}),
    ...(dimensions ? { dimensions } : {}),
    ...(config.sendDimensions !== undefined ? { sendDimensions: config.sendDimensions } : {}),
    ...(encoding ? { encodingFormat: encoding as 'float' | 'base64' } : {}),
    ...(config.revision ? { revision: config.revision } : {}),
  };
  if (config.provider === 'azure-openai') return azureEmbeddingModel(config, common);
  const { OpenAICompatibleEmbeddingModel } = await import(
    '../providers/openai-compatible/openai-compatible-embedding-model.js'
  );
  if (!config.endpoints)
    return new OpenAICompatibleEmbeddingModel({ baseURL: embeddingBaseUrl(config), ...common });
  // Replicas: each with its own address, key, headers and concurrency; one model to the runner.
  const { ReplicatedEmbeddingModel } = await import('../runner/replicated-embedding-model.js');
  return new ReplicatedEmbeddingModel(
    config.endpoints.map((endpoint) => {
      const key = endpoint.apiKeyEnv ? environment[endpoint.apiKeyEnv] : undefined;
      rememberSecret(key);
      return new OpenAICompatibleEmbeddingModel({
        ...common,
        baseURL: endpoint.baseURL,
        ...(key ? { apiKey: key } : {}),
        ...(endpoint.apiKeyEnv ? { apiKeyEnv: endpoint.apiKeyEnv } : {}),
        ...(endpoint.headers ? endpointHeaders(endpoint.headers, environment) : {}),
        ...(endpoint.query ? { query: endpoint.query } : {}),
        maxParallelCalls: endpoint.concurrency ?? common.maxParallelCalls ?? 4,
      });
    }),
  );
}

/** An Azure OpenAI embedding deployment: its key, or an Entra ID token. */
async function azureEmbeddingModel(
  config: EmbeddingModelConfig,
  common: Omit<OpenAICompatibleEmbeddingModelOptions, 'baseURL'>,
): Promise<EmbeddingModel> {
  const { AzureOpenAIEmbeddingModel } = await import(
    '../providers/azure-openai/azure-openai-embedding-model.js'
  );
  const entra = config.auth === 'entra-id';
  if (!entra && !common.apiKey)
    throw new MedbenchError({
      code: 'MISSING_SECRET',
      message: `The Azure OpenAI embedding deployment "${config.deployment}" has no key.`,
      hint: 'Give it "apiKeyEnv" (the variable holding the resource key) or "auth": "entra-id".',
    });
  const { entraIdBearerToken } = await import('../providers/azure-openai/entra-id-token.js');
  return new AzureOpenAIEmbeddingModel({
    ...common,
    resourceURL: config.baseURL!,
    deployment: config.deployment!,
    ...(config.apiVersion ? { apiVersion: config.apiVersion } : {}),
    ...(entra ? { bearerToken: await entraIdBearerToken() } : {}),
  });
}

/**
 * Refuses a retriever spec whose embedding server may not receive restricted text (BM25, LSA and
 * local ONNX models run in this process); see `refuseUnapproved`.
 */
export function checkRetrieverRestricted(
  spec: string,
  config: MedbenchConfig,
  restriction: DataRestriction | undefined,
): void {
  if (!restriction || sparseRetrieverSpec(spec)) return;
  const embedding = embeddingConfigFromSpec(spec, config);
  const endpoints =
    embedding.provider === 'local-onnx'
      ? ['']
      : isCloudEmbedding(embedding)
        ? [cloudEmbeddingEndpoint(embedding)]
        : (embedding.endpoints?.map((endpoint) => endpoint.baseURL) ?? [embeddingBaseUrl(embedding)]).map(
            (url) => endpointIdentity(url),
          );
  refuseUnapproved(
    restriction,
    embedding.label ?? embedding.model ?? spec,
    endpoints.map((endpoint) => ({ endpoint, approved: embedding.restrictedDataApproved })),
  );
}

/**
 * The instruction template an embedding model's queries get (`--instruction`, else the config's,
 * else `none`); undefined for a sparse retriever. The suite whose instructions they are checks it.
 */
export function instructionTemplateOf(
  spec: string,
  config: MedbenchConfig,
  overrides: RetrieverOverrides = {},
): string | undefined {
  if (sparseRetrieverSpec(spec)) return undefined;
  return overrides.instruction ?? embeddingConfigFromSpec(spec, config).instructionTemplate ?? 'none';
}

/** Builds the retriever a `--model` spec names: a sparse one, or an embedding model behind exact search. */
export async function retrieverFromSpec(options: {
  spec: string;
  config: MedbenchConfig;
  overrides?: RetrieverOverrides;
  cache?: EmbeddingCache;
  retry?: RetryPolicy;
  environment?: NodeJS.ProcessEnv;
  onProgress?: (stage: 'corpus' | 'queries', done: number, total: number) => void;
}): Promise<Retriever> {
  const sparse = sparseRetrieverSpec(options.spec);
  const overrides = options.overrides ?? {};
  if (sparse) {
    if (overrides.instruction !== undefined && overrides.instruction !== 'none')
      throw new MedbenchError({
        code: 'USAGE',
        message: `--instruction applies to embedding models, not ${options.spec}.`,
      });
    return SPARSE_RETRIEVERS[sparse.name]!.create(sparse.options);
  }
  const config = embeddingConfigFromSpec(options.spec, options.config);
  return new DenseRetriever({
    model: await EMBEDDING_PROVIDERS[config.provider](config, overrides, options.environment ?? process.env),
    instructionTemplate: instructionTemplateOf(options.spec, options.config, overrides)!,
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
