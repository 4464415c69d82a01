import type { EncodedTokens, TokenEncoder } from '../../core/token-encoder.js';
import { OnnxEncoder } from './onnx-encoder.js';

/**
 * Token vectors from a local ONNX encoder, for BERTScore. BERTScore reads a chosen hidden layer
 * (bert_score's default for roberta-large is layer 17): `layer` reads the output
 * `hidden_states.<layer>` of an export with every hidden state; without it, the export's
 * last_hidden_state is used (export the model truncated to the layer you want).
 */
export class LocalOnnxTokenEncoder implements TokenEncoder {
  readonly name: string;
  readonly revision: string;
  readonly batchSize: number;
  private readonly encoder: OnnxEncoder;

  private readonly output: string | undefined;

  constructor(options: { folder: string; maxLength?: number; batchSize?: number; layer?: number }) {
    this.encoder = new OnnxEncoder({
      folder: options.folder,
      ...(options.maxLength ? { maxLength: options.maxLength } : {}),
    });
    this.name = options.folder.replace(/\/+$/, '').split('/').pop()!;
    this.output = options.layer === undefined ? undefined : `hidden_states.${options.layer}`;
    this.revision = `${this.encoder.revision}-${this.output ?? 'last_hidden_state'}`;
    this.batchSize = options.batchSize ?? 16;
  }

  async encodeTokens(texts: readonly string[]): Promise<EncodedTokens[]> {
    const { data, dims, width, tokens, content } = await this.encoder.encode(texts, this.output);
    const hidden = dims[2]!;
    return tokens.map((ids, row) => {
      // One block a text, in shared memory: BERTScore's matching reads it on worker threads without a copy.
      const block = new Float32Array(new SharedArrayBuffer(ids.length * hidden * 4));
      block.set(data.subarray(row * width * hidden, (row * width + ids.length) * hidden));
      return {
        vectors: ids.map((_, column) => block.subarray(column * hidden, (column + 1) * hidden)),
        start: content[row]!.start,
        end: content[row]!.end,
      };
    });
  }

  /** Releases the ONNX session (BERTScore's encoders are closed when the run ends). */
  close(): Promise<void> {
    return this.encoder.close();
  }
}
