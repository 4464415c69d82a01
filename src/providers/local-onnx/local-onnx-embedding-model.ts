import type { EmbeddingModel, EmbeddingRequest, EmbeddingResponse } from '../../core/embedding-model.js';
import { OnnxEncoder } from './onnx-encoder.js';

export { truncateKeepingSpecials } from './encoder-tokenizer.js';

export type Pooling = 'cls' | 'mean' | 'last-token';

export interface LocalOnnxEmbeddingModelOptions {
  /** A folder holding tokenizer.json (+ tokenizer_config.json) and model.onnx or onnx/model.onnx. */
  folder: string;
  pooling?: Pooling;
  /** Token limit per text (special tokens included); defaults to the tokenizer's model_max_length, capped at 8,192. */
  maxLength?: number;
  batchSize?: number;
  /** The name to report; defaults to the folder name. */
  modelId?: string;
}

/**
 * A local embedding model exported to ONNX, pooled as the model needs (CLS, mean over the
 * attention mask, or last token); vectors are L2-normalised by the runner.
 */
export class LocalOnnxEmbeddingModel implements EmbeddingModel {
  readonly provider = 'local-onnx';
  readonly modelId: string;
  readonly endpoint: string;
  readonly revision: string;
  readonly maxEmbeddingsPerCall: number;
  readonly maxParallelCalls = 1;
  readonly pooling: Pooling;
  private readonly encoder: OnnxEncoder;

  constructor(options: LocalOnnxEmbeddingModelOptions) {
    this.encoder = new OnnxEncoder({
      folder: options.folder,
      ...(options.maxLength ? { maxLength: options.maxLength } : {}),
    });
    this.modelId = options.modelId ?? options.folder.replace(/\/+$/, '').split('/').pop()!;
    this.endpoint = `file://${options.folder}`;
    this.pooling = options.pooling ?? 'cls';
    this.maxEmbeddingsPerCall = options.batchSize ?? 16;
    this.revision = `${this.encoder.revision}-${this.pooling}`;
  }

  async embed(request: EmbeddingRequest): Promise<EmbeddingResponse> {
    const { data, dims, width, tokens } = await this.encoder.encode(request.values);
    const usage = { tokens: tokens.reduce((sum, ids) => sum + ids.length, 0) };
    const embeddings: Float32Array[] = [];
    if (dims.length === 2) {
      for (let row = 0; row < tokens.length; row++)
        embeddings.push(data.slice(row * dims[1]!, (row + 1) * dims[1]!));
      return { embeddings, usage };
    }
    const hidden = dims[2]!;
    tokens.forEach((ids, row) => {
      const vector = new Float32Array(hidden);
      const at = (column: number) => (row * width + column) * hidden;
      if (this.pooling === 'mean') {
        for (let column = 0; column < ids.length; column++)
          for (let unit = 0; unit < hidden; unit++) vector[unit]! += data[at(column) + unit]!;
        for (let unit = 0; unit < hidden; unit++) vector[unit]! /= ids.length;
      } else {
        const column = this.pooling === 'cls' ? 0 : ids.length - 1;
        vector.set(data.subarray(at(column), at(column) + hidden));
      }
      embeddings.push(vector);
    });
    return { embeddings, usage };
  }
}
