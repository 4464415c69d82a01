import { MedbenchError } from '../core/errors.js';
import type { Pooling } from './local-onnx/local-onnx-embedding-model.js';
import type { EmbeddingFactoryOptions } from './provider-descriptor.js';

/** The pooling an entry or `--pooling` asks for, refused when it is none medbench knows. */
export function poolingOf(options: EmbeddingFactoryOptions<unknown>): Pooling | undefined {
  const pooling = (options.overrides.pooling ?? options.entry.pooling) as Pooling | undefined;
  if (pooling !== undefined && !['cls', 'mean', 'last-token'].includes(pooling))
    throw new MedbenchError({ code: 'USAGE', message: `--pooling ${pooling}: use cls, mean or last-token.` });
  return pooling;
}

/** The vector size asked for (`--dimensions`, or the entry's). */
export function dimensionsOf(options: EmbeddingFactoryOptions<unknown>): number | undefined {
  return options.overrides.dimensions ?? options.entry.dimensions;
}

/** What the Ollama, Bedrock and Gemini embedding adapters share: parallel calls, headers, query. */
export function sdkEmbeddingOptions(options: EmbeddingFactoryOptions<unknown>) {
  const { entry } = options;
  const concurrency = options.overrides.concurrency ?? entry.concurrency;
  return {
    ...(concurrency ? { maxParallelCalls: concurrency } : {}),
    // Fixed headers and the query are part of the endpoint's identity; secret headers are not.
    ...options.headers(entry.headers),
    ...(entry.query ? { query: entry.query } : {}),
  };
}
