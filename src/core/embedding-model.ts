export interface EmbeddingRequest {
  values: string[];
  signal?: AbortSignal;
}

export interface EmbeddingResponse {
  /** One vector per value, in request order. */
  embeddings: Float32Array[];
  usage: { tokens: number } | undefined;
}

/**
 * An embedding model adapter. Providers declare what they can do; the runner splits batches
 * by `maxEmbeddingsPerCall`, limits parallel calls, retries, validates and caches.
 */
export interface EmbeddingModel {
  readonly provider: string;
  readonly modelId: string;
  readonly endpoint: string;
  /** What identifies the weights beyond the id (a revision, a file hash), for the cache key. */
  readonly revision: string;
  readonly maxEmbeddingsPerCall: number;
  readonly maxParallelCalls: number;
  /** The vector size, when declared; the runner checks every vector against it. */
  readonly dimensions?: number;
  embed(request: EmbeddingRequest): Promise<EmbeddingResponse>;
}
