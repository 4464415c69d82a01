import { z } from 'zod';
import type { EmbeddingModel, EmbeddingRequest, EmbeddingResponse } from '../../core/embedding-model.js';
import { MedbenchError } from '../../core/errors.js';
import { postJson } from '../http-json.js';
import {
  type OpenAICompatibleChatModelOptions,
  OpenAICompatibleEndpoint,
} from './openai-compatible-endpoint.js';

export interface OpenAICompatibleEmbeddingModelOptions extends OpenAICompatibleChatModelOptions {
  /** Inputs per request (OpenAI allows 2,048; local servers often fewer). */
  batchSize?: number;
  maxParallelCalls?: number;
  /** Expected vector size; also sent as `dimensions` when `sendDimensions` is set (OpenAI v3 models). */
  dimensions?: number;
  sendDimensions?: boolean;
  /** `float` (default, what every server speaks) or `base64` (smaller answers where supported). */
  encodingFormat?: 'float' | 'base64';
  revision?: string;
}

const responseSchema = z.object({
  data: z
    .array(
      z.object({
        index: z.number().int().nonnegative(),
        embedding: z.union([z.array(z.number()), z.string()]),
      }),
    )
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number().optional(), total_tokens: z.number().optional() })
    .nullable()
    .optional(),
});

/** Decodes OpenAI's base64 form: little-endian float32 bytes. */
export function decodeBase64Embedding(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0)
    throw new MedbenchError({
      code: 'ENDPOINT_BAD_RESPONSE',
      message: `A base64 embedding has ${bytes.length} bytes, not a whole number of float32 values.`,
      retryable: true,
    });
  const vector = new Float32Array(bytes.length / 4);
  for (let index = 0; index < vector.length; index++) vector[index] = bytes.readFloatLE(index * 4);
  return vector;
}

/** Any server speaking OpenAI's /embeddings: OpenAI, vLLM, SGLang, Ollama, llama.cpp, TEI … */
export class OpenAICompatibleEmbeddingModel extends OpenAICompatibleEndpoint implements EmbeddingModel {
  readonly provider: string = 'openai-compatible';
  readonly revision: string;
  readonly maxEmbeddingsPerCall: number;
  readonly maxParallelCalls: number;
  readonly dimensions?: number;
  private readonly sendDimensions: boolean;
  private readonly encodingFormat: 'float' | 'base64';

  constructor(options: OpenAICompatibleEmbeddingModelOptions) {
    super(options);
    this.revision = options.revision ?? '';
    this.maxEmbeddingsPerCall = options.batchSize ?? 64;
    this.maxParallelCalls = options.maxParallelCalls ?? 4;
    if (options.dimensions !== undefined) this.dimensions = options.dimensions;
    this.sendDimensions = options.sendDimensions ?? false;
    this.encodingFormat = options.encodingFormat ?? 'float';
  }

  async embed(request: EmbeddingRequest): Promise<EmbeddingResponse> {
    const url = this.url('/embeddings');
    const response = await postJson({
      url,
      ...(await this.requestOptions()),
      body: {
        ...this.modelField,
        input: request.values,
        encoding_format: this.encodingFormat,
        ...(this.sendDimensions && this.dimensions !== undefined ? { dimensions: this.dimensions } : {}),
      },
      schema: responseSchema,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const embeddings: Float32Array[] = new Array(request.values.length);
    for (const item of response.data) {
      if (item.index >= request.values.length || embeddings[item.index] !== undefined)
        throw new MedbenchError({
          code: 'ENDPOINT_BAD_RESPONSE',
          message: `${url} returned embedding index ${item.index} for ${request.values.length} inputs (out of range or repeated).`,
          retryable: false,
        });
      // Servers that ignore encoding_format answer with floats either way, so both forms are read.
      embeddings[item.index] =
        typeof item.embedding === 'string'
          ? decodeBase64Embedding(item.embedding)
          : Float32Array.from(item.embedding);
    }
    const tokens = response.usage?.prompt_tokens ?? response.usage?.total_tokens;
    return { embeddings, usage: tokens !== undefined ? { tokens } : undefined };
  }
}
