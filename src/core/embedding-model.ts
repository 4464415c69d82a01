/** Texts to embed in one call. */
export interface EmbeddingRequest {
  values: string[];
  /** What the texts are, for models that embed queries and documents differently. */
  role?: 'query' | 'document';
  signal?: AbortSignal;
}

/** An embedding model's vectors for one call. */
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
  /**
   * True when the model embeds a text differently as a query and as a document (Cohere's
   * input_type, Gemini's taskType): `role` is then sent, and part of the cache key.
   */
  readonly inputRoles?: boolean;
  /** The vector size, when declared; the runner checks every vector against it. */
  readonly dimensions?: number;
  embed(request: EmbeddingRequest): Promise<EmbeddingResponse>;
}
