import type { EncodedTokens, TokenEncoder } from '../core/token-encoder.js';
import { OnnxEncoder } from './onnx-encoder.js';

/**
 * Token vectors from a local ONNX encoder, for BERTScore. BERTScore reads a chosen hidden layer
 * (the paper's clinical BERT, or roberta-large layer 17 by bert_score's defaults): export the
 * model truncated to that layer, and its last_hidden_state is that layer.
 */
export class LocalOnnxTokenEncoder implements TokenEncoder {
  readonly name: string;
  readonly revision: string;
  readonly batchSize: number;
  private readonly encoder: OnnxEncoder;

  constructor(options: { folder: string; maxLength?: number; batchSize?: number }) {
    this.encoder = new OnnxEncoder({
      folder: options.folder,
      ...(options.maxLength ? { maxLength: options.maxLength } : {}),
    });
    this.name = options.folder.replace(/\/+$/, '').split('/').pop()!;
    this.revision = this.encoder.revision;
    this.batchSize = options.batchSize ?? 16;
  }

  async encodeTokens(texts: readonly string[]): Promise<EncodedTokens[]> {
    const { data, dims, width, tokens, content } = await this.encoder.encode(texts);
    const hidden = dims[2]!;
    return tokens.map((ids, row) => ({
      vectors: ids.map((_, column) =>
        data.slice((row * width + column) * hidden, (row * width + column + 1) * hidden),
      ),
      start: content[row]!.start,
      end: content[row]!.end,
    }));
  }
}
