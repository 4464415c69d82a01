export interface EmbeddingRequest {
  values: string[];
  signal?: AbortSignal;
}

export interface EmbeddingResponse {
  embeddings: number[][];
  usage: { tokens: number } | undefined;
}

/** An embedding model adapter; the runner splits batches by `maxEmbeddingsPerCall`. */
export interface EmbeddingModel {
  readonly provider: string;
  readonly modelId: string;
  readonly endpoint: string;
  readonly maxEmbeddingsPerCall: number;
  embed(request: EmbeddingRequest): Promise<EmbeddingResponse>;
}
