import { z } from 'zod';
import type { EmbeddingModel, EmbeddingRequest, EmbeddingResponse } from '../../core/embedding-model.js';
import { HttpEndpoint } from '../http-endpoint.js';
import { postJson } from '../http-json.js';
import type { OllamaChatModelOptions } from './ollama-chat-model.js';

/** As a chat model's options, without the window (an embedding call has no num_ctx). */
export interface OllamaEmbeddingModelOptions extends Omit<OllamaChatModelOptions, 'contextWindow'> {
  maxEmbeddingsPerCall?: number;
  maxParallelCalls?: number;
}

const answerSchema = z.object({
  embeddings: z.array(z.array(z.number())),
  prompt_eval_count: z.number().optional(),
});

/** Ollama's native /api/embed: a batch of texts in, one vector each out. */
export class OllamaEmbeddingModel extends HttpEndpoint implements EmbeddingModel {
  readonly provider = 'ollama';
  readonly revision = 'ollama';
  readonly maxEmbeddingsPerCall: number;
  readonly maxParallelCalls: number;

  constructor(options: OllamaEmbeddingModelOptions) {
    super({
      ...options,
      notFoundHint: `Ollama at ${options.baseURL} has no model "${options.modelId}": run \`ollama pull ${options.modelId}\` there.`,
    });
    this.maxEmbeddingsPerCall = options.maxEmbeddingsPerCall ?? 32;
    this.maxParallelCalls = options.maxParallelCalls ?? 2;
  }

  async embed(request: EmbeddingRequest): Promise<EmbeddingResponse> {
    const answer = await postJson({
      url: this.url('/api/embed'),
      ...(await this.requestOptions()),
      // truncate: false — a text longer than the model's window is an error, never silently cut.
      body: { model: this.modelId, input: request.values, truncate: false },
      schema: answerSchema,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return {
      embeddings: answer.embeddings.map((vector) => Float32Array.from(vector)),
      usage: answer.prompt_eval_count !== undefined ? { tokens: answer.prompt_eval_count } : undefined,
    };
  }
}
