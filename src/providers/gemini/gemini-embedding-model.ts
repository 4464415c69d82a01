import type { GoogleGenAI } from '@google/genai';
import type { EmbeddingModel, EmbeddingRequest, EmbeddingResponse } from '../../core/embedding-model.js';
import { MedbenchError } from '../../core/errors.js';
import {
  callSignal,
  type GeminiConnection,
  geminiAuthHint,
  geminiClient,
  geminiIdentity,
  geminiSecrets,
  watchedFetch,
} from './gemini-client.js';
import { geminiFailure } from './gemini-errors.js';

export interface GeminiEmbeddingModelOptions extends GeminiConnection {
  /** gemini-embedding-001, text-embedding-004/005, text-multilingual-embedding-002 … */
  modelId: string;
  /** outputDimensionality: a shorter vector (Matryoshka models). */
  dimensions?: number;
  maxParallelCalls?: number;
}

/**
 * Gemini and Vertex AI embeddings through @google/genai's embedContent (the Gemini API's
 * batchEmbedContents, Vertex AI's predict), with the task type of retrieval: RETRIEVAL_QUERY for
 * queries, RETRIEVAL_DOCUMENT for documents.
 */
export class GeminiEmbeddingModel implements EmbeddingModel {
  readonly provider: string;
  readonly modelId: string;
  readonly endpoint: string;
  readonly revision: string;
  readonly maxEmbeddingsPerCall: number;
  readonly maxParallelCalls: number;
  readonly inputRoles = true;
  readonly dimensions?: number;
  private client: Promise<GoogleGenAI> | undefined;

  constructor(private readonly options: GeminiEmbeddingModelOptions) {
    this.modelId = options.modelId;
    this.provider = options.vertex ? 'vertex-ai' : 'gemini';
    this.endpoint = geminiIdentity(options);
    this.revision = `gemini:${options.dimensions ?? 'default'}`;
    // The Gemini API batches up to 100 texts; on Vertex AI gemini-embedding models take one per call.
    this.maxEmbeddingsPerCall = options.vertex
      ? options.modelId.startsWith('gemini-embedding')
        ? 1
        : 250
      : 100;
    this.maxParallelCalls = options.maxParallelCalls ?? 4;
    if (options.dimensions !== undefined) this.dimensions = options.dimensions;
  }

  async embed(request: EmbeddingRequest): Promise<EmbeddingResponse> {
    let vectors: Array<number[] | undefined>;
    const watched = watchedFetch(this.options);
    const own = callSignal(request.signal);
    try {
      this.client ??= geminiClient(this.options);
      const client = await this.client;
      const answer = await client.models.embedContent({
        model: this.modelId,
        contents: request.values,
        config: {
          taskType: request.role === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT',
          ...(this.dimensions ? { outputDimensionality: this.dimensions } : {}),
          // A text longer than the model takes is an error, never silently cut (Vertex AI).
          ...(this.options.vertex ? { autoTruncate: false } : {}),
          httpOptions: { fetch: watched.fetch },
          ...(own.signal ? { abortSignal: own.signal } : {}),
        },
      });
      vectors = (answer.embeddings ?? []).map((embedding) => embedding.values);
    } catch (caught) {
      throw geminiFailure(caught, {
        shown: this.endpoint,
        modelId: this.modelId,
        authHint: geminiAuthHint(this.options),
        retryAfterMs: watched.retryAfterMs,
        signal: request.signal,
        secrets: geminiSecrets(this.options),
        sent: watched.sent,
      });
    } finally {
      own.done();
    }
    if (vectors.some((vector) => vector === undefined))
      throw new MedbenchError({
        code: 'ENDPOINT_BAD_RESPONSE',
        message: `${this.endpoint} returned an embedding without values.`,
        retryable: true,
      });
    return { embeddings: vectors.map((vector) => Float32Array.from(vector!)), usage: undefined };
  }
}
