import type { EmbeddingModel } from '../core/embedding-model.js';
import { MedbenchError } from '../core/errors.js';
import type { Retriever } from '../core/retriever.js';
import type { EmbeddingDescriptor, EmbeddingOverrides } from '../providers/provider-descriptor.js';
import { EMBEDDING_PROVIDERS } from '../providers/registry.js';
import { DenseRetriever } from '../runner/dense-retriever.js';
import type { RetryPolicy } from '../runner/retry.js';
import type { EmbeddingCache } from '../store/embedding-cache.js';
import type { EmbeddingModelConfig, MedbenchConfig } from './config.js';
import { endpointHeaders } from './endpoint-headers.js';
import { rememberSecret } from './known-secrets.js';
import { type DataRestriction, refuseUnapproved } from './restricted-data.js';

/** What a run's flags override of an embedding model's entry (`--pooling`, `--dimensions` …). */
export type RetrieverOverrides = EmbeddingOverrides;

function usage(spec: string, hint: string): MedbenchError {
  return new MedbenchError({
    code: 'MODEL_SPEC_INVALID',
    message: `"${spec}" is not a retriever medbench can run.`,
    hint,
  });
}

const SPEC_HINT = `Retrievers: bm25 (bm25:k1=1.5,b=0.75), lsa (lsa:<dimensions>), a name from embeddingModels in medbench.config.json, ${EMBEDDING_PROVIDERS.filter(
  (provider) => provider.specForm.includes(':'),
)
  .map((provider) => provider.specForm)
  .join(', ')}.`;

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
  const colon = spec.indexOf(':');
  const prefix = spec.slice(0, Math.max(colon, 0));
  const provider = EMBEDDING_PROVIDERS.find((known) => (known.specPrefix ?? known.name) === prefix);
  const parsed = colon > 0 ? provider?.parse(spec.slice(colon + 1)) : undefined;
  if (parsed) return parsed as EmbeddingModelConfig;
  throw usage(spec, SPEC_HINT);
}

/** The descriptor of an embedding entry's provider (the schema admits only registered ones). */
function embeddingProvider(config: EmbeddingModelConfig): EmbeddingDescriptor {
  return EMBEDDING_PROVIDERS.find((provider) => provider.name === config.provider)!;
}

/** The embedding model of an entry, made by its provider's factory (replicas become one model). */
async function embeddingModel(
  config: EmbeddingModelConfig,
  overrides: RetrieverOverrides,
  environment: NodeJS.ProcessEnv,
  dryRun: boolean,
): Promise<EmbeddingModel> {
  const made = await embeddingProvider(config).create({
    entry: config,
    overrides,
    keysDeferred: dryRun,
    readSecret(variable) {
      const value = environment[variable];
      rememberSecret(value);
      return value || undefined;
    },
    headers: (headers) => endpointHeaders(headers, environment),
  });
  if (!Array.isArray(made)) return made;
  const { ReplicatedEmbeddingModel } = await import('../runner/replicated-embedding-model.js');
  return new ReplicatedEmbeddingModel(made);
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
  const endpoints = embeddingProvider(embedding).endpoints(embedding);
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
  /** A dry run sends nothing: a key that is not set is no error yet. */
  dryRun?: boolean;
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
    model: await embeddingModel(
      config,
      overrides,
      options.environment ?? process.env,
      options.dryRun === true,
    ),
    instructionTemplate: instructionTemplateOf(options.spec, options.config, overrides)!,
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
