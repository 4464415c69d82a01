import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { z } from 'zod';
import type { EmbeddingModel, EmbeddingRequest, EmbeddingResponse } from '../../core/embedding-model.js';
import { MedbenchError } from '../../core/errors.js';
import { loadOptionalPart, OPTIONAL_PARTS } from '../../core/optional-part.js';
import { bedrockFailure } from './bedrock-errors.js';
import { type BedrockConnection, bedrockRuntime, regionOf, runtimeIdentity } from './bedrock-runtime.js';

export interface BedrockEmbeddingModelOptions extends BedrockConnection {
  /** amazon.titan-embed-text-v1, amazon.titan-embed-text-v2:0, cohere.embed-english-v3, cohere.embed-multilingual-v3 … */
  modelId: string;
  /** Titan v2: 256, 512 or 1024 (its default). */
  dimensions?: number;
  maxParallelCalls?: number;
}

/** The two request shapes Bedrock's embedding models take (InvokeModel bodies). */
type Family = 'titan-v1' | 'titan-v2' | 'cohere';

function familyOf(modelId: string): Family {
  // An inference profile may carry a geography prefix (us., eu., apac.).
  const bare = modelId.replace(/^[a-z]{2,4}\./, '');
  if (bare.startsWith('amazon.titan-embed-text-v2')) return 'titan-v2';
  if (bare.startsWith('amazon.titan-embed-text-v1') || bare.startsWith('amazon.titan-embed-g1-text'))
    return 'titan-v1';
  if (bare.startsWith('cohere.embed')) return 'cohere';
  throw new MedbenchError({
    code: 'CONFIG_INVALID',
    message: `Bedrock embedding model "${modelId}" is not one medbench knows how to call.`,
    hint: 'Use amazon.titan-embed-text-v2:0, amazon.titan-embed-text-v1, or a cohere.embed-* v3 model.',
  });
}

const titanAnswer = z.object({ embedding: z.array(z.number()), inputTextTokenCount: z.number().optional() });
const cohereAnswer = z.object({ embeddings: z.array(z.array(z.number())) });

/**
 * Bedrock's embedding models through InvokeModel: Titan takes one text per call; Cohere up to 96
 * with an input type (search_query for queries, search_document for documents).
 */
export class BedrockEmbeddingModel implements EmbeddingModel {
  readonly provider = 'bedrock';
  readonly modelId: string;
  readonly endpoint: string;
  readonly revision: string;
  readonly maxEmbeddingsPerCall: number;
  readonly maxParallelCalls: number;
  readonly inputRoles: boolean;
  readonly dimensions?: number;
  private readonly family: Family;
  private client: Promise<BedrockRuntimeClient> | undefined;

  constructor(private readonly options: BedrockEmbeddingModelOptions) {
    this.modelId = options.modelId;
    this.family = familyOf(options.modelId);
    this.endpoint = runtimeIdentity(options);
    // A model id names fixed weights on Bedrock; the vector size is part of what is asked.
    this.revision = `bedrock:${options.dimensions ?? 'default'}`;
    this.maxEmbeddingsPerCall = this.family === 'cohere' ? 96 : 1;
    this.maxParallelCalls = options.maxParallelCalls ?? (this.family === 'cohere' ? 4 : 16);
    this.inputRoles = this.family === 'cohere';
    if (options.dimensions !== undefined) {
      if (this.family !== 'titan-v2')
        throw new MedbenchError({
          code: 'CONFIG_INVALID',
          message: `"dimensions" applies to amazon.titan-embed-text-v2 only, not "${options.modelId}".`,
        });
      this.dimensions = options.dimensions;
    }
  }

  private body(request: EmbeddingRequest): unknown {
    if (this.family === 'cohere')
      return {
        texts: request.values,
        input_type: request.role === 'query' ? 'search_query' : 'search_document',
        // A text longer than the model takes is an error, never silently cut.
        truncate: 'NONE',
      };
    const [text] = request.values;
    return this.family === 'titan-v2'
      ? { inputText: text, normalize: true, ...(this.dimensions ? { dimensions: this.dimensions } : {}) }
      : { inputText: text };
  }

  async embed(request: EmbeddingRequest): Promise<EmbeddingResponse> {
    if (this.family !== 'cohere' && request.values.length !== 1)
      throw new MedbenchError({ code: 'USAGE', message: `${this.modelId} embeds one text per call.` });
    let answer: unknown;
    try {
      const { InvokeModelCommand } = await loadOptionalPart(
        OPTIONAL_PARTS.bedrock,
        () => import('@aws-sdk/client-bedrock-runtime'),
      );
      this.client ??= bedrockRuntime(this.options, this.modelId);
      const client = await this.client;
      const output = await client.send(
        new InvokeModelCommand({
          modelId: this.modelId,
          contentType: 'application/json',
          accept: 'application/json',
          body: new TextEncoder().encode(JSON.stringify(this.body(request))),
        }),
        request.signal ? { abortSignal: request.signal } : {},
      );
      answer = JSON.parse(new TextDecoder().decode(output.body));
    } catch (caught) {
      throw bedrockFailure(caught, {
        shown: this.endpoint,
        modelId: this.modelId,
        region: regionOf(this.options),
        signal: request.signal,
      });
    }
    const parsed = (this.family === 'cohere' ? cohereAnswer : titanAnswer).safeParse(answer);
    if (!parsed.success)
      throw new MedbenchError({
        code: 'ENDPOINT_BAD_RESPONSE',
        message: `${this.endpoint} returned an unexpected ${this.modelId} answer: ${parsed.error.issues[0]!.message}`,
        retryable: true,
      });
    if ('embeddings' in parsed.data)
      return {
        embeddings: parsed.data.embeddings.map((vector) => Float32Array.from(vector)),
        usage: undefined,
      };
    const { embedding, inputTextTokenCount } = parsed.data;
    return {
      embeddings: [Float32Array.from(embedding)],
      usage: inputTextTokenCount !== undefined ? { tokens: inputTextTokenCount } : undefined,
    };
  }
}
