import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EmbeddingModel, EmbeddingRequest, EmbeddingResponse } from '../core/embedding-model.js';
import { MedbenchError } from '../core/errors.js';

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

interface Tokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
  pad_token_id?: number;
  model_max_length?: number;
}

type Ort = typeof import('onnxruntime-node');
type Session = Awaited<ReturnType<Ort['InferenceSession']['create']>>;

function folderError(message: string, hint: string): MedbenchError {
  return new MedbenchError({ code: 'MODEL_FOLDER_INVALID', message, hint });
}

/** A cheap content fingerprint of a large file: its size and its first and last megabyte. */
function fingerprint(path: string): string {
  const size = statSync(path).size;
  const hash = createHash('sha256').update(String(size));
  const descriptor = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(Math.min(size, 1 << 20));
    readSync(descriptor, chunk, 0, chunk.length, 0);
    hash.update(chunk);
    readSync(descriptor, chunk, 0, chunk.length, Math.max(0, size - chunk.length));
    hash.update(chunk);
  } finally {
    closeSync(descriptor);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Cuts a tokenised text to `maxLength` the way Hugging Face tokenizers do: the content is
 * shortened and the special tokens around it are kept.
 */
export function truncateKeepingSpecials(
  withSpecials: number[],
  plain: number[],
  maxLength: number,
): number[] {
  if (withSpecials.length <= maxLength) return withSpecials;
  let start = 0;
  while (start < withSpecials.length && withSpecials[start] !== plain[0]) start++;
  const prefix = withSpecials.slice(0, start);
  const suffix = withSpecials.slice(start + plain.length);
  return [...prefix, ...plain.slice(0, Math.max(0, maxLength - prefix.length - suffix.length)), ...suffix];
}

/**
 * A local embedding model exported to ONNX (Hugging Face Optimum layout), run with
 * onnxruntime-node; tokenised with the folder's own tokenizer.json. Pooling (CLS, mean or last
 * token) follows the model; vectors are L2-normalised by the runner.
 */
export class LocalOnnxEmbeddingModel implements EmbeddingModel {
  readonly provider = 'local-onnx';
  readonly modelId: string;
  readonly endpoint: string;
  readonly revision: string;
  readonly maxEmbeddingsPerCall: number;
  readonly maxParallelCalls = 1;
  readonly pooling: Pooling;
  private readonly modelPath: string;
  private readonly tokenizerPath: string;
  private readonly requestedMaxLength: number | undefined;
  private loaded:
    | Promise<{ session: Session; tokenizer: Tokenizer; ort: Ort; maxLength: number }>
    | undefined;

  constructor(options: LocalOnnxEmbeddingModelOptions) {
    const { folder } = options;
    if (!existsSync(folder) || !statSync(folder).isDirectory())
      throw folderError(
        `Model folder not found: ${folder}`,
        'Pass the folder of an ONNX export (model.onnx and tokenizer.json).',
      );
    this.tokenizerPath = join(folder, 'tokenizer.json');
    if (!existsSync(this.tokenizerPath))
      throw folderError(
        `${folder} has no tokenizer.json.`,
        'Save the tokenizer beside the model: AutoTokenizer.from_pretrained(name).save_pretrained(folder).',
      );
    const modelPath = [join(folder, 'model.onnx'), join(folder, 'onnx', 'model.onnx')].find((path) =>
      existsSync(path),
    );
    if (!modelPath)
      throw folderError(
        `${folder} has no model.onnx (nor onnx/model.onnx).`,
        'Export the model first, e.g. `optimum-cli export onnx --model <name> --task feature-extraction <folder>`.',
      );
    this.modelPath = modelPath;
    this.modelId = options.modelId ?? folder.replace(/\/+$/, '').split('/').pop()!;
    this.endpoint = `file://${folder}`;
    this.pooling = options.pooling ?? 'cls';
    this.maxEmbeddingsPerCall = options.batchSize ?? 16;
    this.requestedMaxLength = options.maxLength;
    this.revision = `${fingerprint(modelPath)}-${fingerprint(this.tokenizerPath)}-${this.pooling}-${options.maxLength ?? 'default'}`;
  }

  private load() {
    this.loaded ??= (async () => {
      const ort: Ort = await import('onnxruntime-node');
      const { TokenizerLoader } = await import('@lenml/tokenizers');
      const configPath = join(this.tokenizerPath, '..', 'tokenizer_config.json');
      let tokenizer: Tokenizer;
      try {
        tokenizer = TokenizerLoader.fromPreTrained({
          tokenizerJSON: JSON.parse(readFileSync(this.tokenizerPath, 'utf8')),
          tokenizerConfig: existsSync(configPath) ? JSON.parse(readFileSync(configPath, 'utf8')) : {},
        }) as unknown as Tokenizer;
      } catch (error) {
        throw folderError(
          `${this.tokenizerPath} cannot be loaded: ${(error as Error).message}`,
          'Re-save the tokenizer with a recent transformers version.',
        );
      }
      const session = await ort.InferenceSession.create(this.modelPath);
      const declared = tokenizer.model_max_length;
      const maxLength =
        this.requestedMaxLength ?? (declared && declared < 1e9 ? Math.min(declared, 8192) : 512);
      return { session, tokenizer, ort, maxLength };
    })();
    return this.loaded;
  }

  async embed(request: EmbeddingRequest): Promise<EmbeddingResponse> {
    const { session, tokenizer, ort, maxLength } = await this.load();
    const encoded = request.values.map((text) =>
      truncateKeepingSpecials(
        tokenizer.encode(text),
        tokenizer.encode(text, { add_special_tokens: false }),
        maxLength,
      ),
    );
    const batch = encoded.length;
    const width = Math.max(1, ...encoded.map((ids) => ids.length));
    const ids = new BigInt64Array(batch * width).fill(BigInt(tokenizer.pad_token_id ?? 0));
    const mask = new BigInt64Array(batch * width);
    encoded.forEach((tokens, row) => {
      tokens.forEach((token, column) => {
        ids[row * width + column] = BigInt(token);
        mask[row * width + column] = 1n;
      });
    });
    const feeds: Record<string, InstanceType<Ort['Tensor']>> = {};
    for (const name of session.inputNames) {
      if (name === 'input_ids') feeds[name] = new ort.Tensor('int64', ids, [batch, width]);
      else if (name === 'attention_mask') feeds[name] = new ort.Tensor('int64', mask, [batch, width]);
      else if (name === 'token_type_ids')
        feeds[name] = new ort.Tensor('int64', new BigInt64Array(batch * width), [batch, width]);
      else
        throw folderError(
          `${this.modelPath} expects an input "${name}" medbench does not know.`,
          'Export a feature-extraction model (inputs input_ids, attention_mask, token_type_ids).',
        );
    }
    const outputs = await session.run(feeds);
    const output = outputs.last_hidden_state ?? outputs[session.outputNames[0]!]!;
    const data = output.data as Float32Array;
    const dims = output.dims;
    const embeddings: Float32Array[] = [];
    if (dims.length === 2) {
      for (let row = 0; row < batch; row++) embeddings.push(data.slice(row * dims[1]!, (row + 1) * dims[1]!));
      return { embeddings, usage: { tokens: encoded.reduce((sum, tokens) => sum + tokens.length, 0) } };
    }
    const hidden = dims[2]!;
    encoded.forEach((tokens, row) => {
      const vector = new Float32Array(hidden);
      const at = (column: number) => (row * width + column) * hidden;
      if (this.pooling === 'mean') {
        for (let column = 0; column < tokens.length; column++)
          for (let unit = 0; unit < hidden; unit++) vector[unit]! += data[at(column) + unit]!;
        for (let unit = 0; unit < hidden; unit++) vector[unit]! /= tokens.length;
      } else {
        const column = this.pooling === 'cls' ? 0 : tokens.length - 1;
        vector.set(data.subarray(at(column), at(column) + hidden));
      }
      embeddings.push(vector);
    });
    return { embeddings, usage: { tokens: encoded.reduce((sum, tokens) => sum + tokens.length, 0) } };
  }
}
