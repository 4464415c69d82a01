import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { loadOptionalPart, OPTIONAL_PARTS } from '../../core/optional-part.js';
import { EncoderTokenizer, type EncoderTokens } from './encoder-tokenizer.js';
import { folderError } from './folder-error.js';

type Ort = typeof import('onnxruntime-node');
type Session = Awaited<ReturnType<Ort['InferenceSession']['create']>>;

/** One batch through the encoder: hidden states [batch, width, hidden] (or pooled [batch, hidden]). */
export interface EncodedBatch {
  data: Float32Array;
  dims: readonly number[];
  width: number;
  /** Token ids per text, special tokens included, after truncation. */
  tokens: number[][];
  /** Where each text's own tokens start and end within `tokens` (special tokens outside). */
  content: Array<{ start: number; end: number }>;
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
 * A local transformer encoder exported to ONNX (Hugging Face Optimum layout), run with
 * onnxruntime-node and tokenised with the folder's own tokenizer.json (`EncoderTokenizer`: Hugging
 * Face's Rust tokenizers on every core, else the pure-JS transformers.js port). Shared by the
 * embedding model (pooled vectors) and the BERTScore token encoder (per-token vectors).
 */
export class OnnxEncoder {
  readonly modelPath: string;
  readonly tokenizerPath: string;
  readonly revision: string;
  private readonly requestedMaxLength: number | undefined;
  private loaded:
    | Promise<{ session: Session; tokenizer: EncoderTokenizer; ort: Ort; maxLength: number }>
    | undefined;

  constructor(options: { folder: string; maxLength?: number }) {
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
    this.requestedMaxLength = options.maxLength;
    this.revision = `${fingerprint(modelPath)}-${fingerprint(this.tokenizerPath)}-${options.maxLength ?? 'default'}`;
  }

  private load() {
    this.loaded ??= (async () => {
      const ort: Ort = await loadOptionalPart(OPTIONAL_PARTS.onnx, () => import('onnxruntime-node'));
      const tokenizer = await EncoderTokenizer.load(this.tokenizerPath);
      let session: Session;
      try {
        // Every core: onnxruntime's default took one thread of a 2-core machine (exact-search.ts).
        session = await ort.InferenceSession.create(this.modelPath, {
          intraOpNumThreads: availableParallelism(),
        });
      } catch (error) {
        throw folderError(
          `${this.modelPath} cannot be loaded by onnxruntime: ${(error as Error).message}`,
          'Export the model again (e.g. `optimum-cli export onnx --model <name> --task feature-extraction <folder>`); the file may be cut short or damaged.',
        );
      }
      const declared = tokenizer.declaredMaxLength;
      const maxLength = this.requestedMaxLength ?? (declared ? Math.min(declared, 8192) : 512);
      return { session, tokenizer, ort, maxLength };
    })();
    return this.loaded;
  }

  /**
   * Tokenises, pads (right) and runs one batch. `output` names the graph output to read (a
   * hidden layer such as `hidden_states.17` in an export with all hidden states); default
   * `last_hidden_state`, else the first output.
   */
  async encode(texts: readonly string[], output?: string): Promise<EncodedBatch> {
    const { session, tokenizer, ort, maxLength } = await this.load();
    let truncated: EncoderTokens[];
    try {
      truncated = await tokenizer.tokenize(texts, maxLength);
    } catch (error) {
      throw folderError(
        `${this.tokenizerPath} cannot tokenise text: ${(error as Error).message}`,
        'Re-save the tokenizer with a recent transformers version.',
      );
    }
    const tokens = truncated.map((item) => item.ids);
    const padId = tokenizer.padId;
    // Spread, not flat(): flat() skips the holes a broken vocabulary leaves.
    const all = [padId, ...tokens.flatMap((ids) => [...ids])];
    const bad = all.findIndex((id) => !Number.isSafeInteger(id) || id < 0);
    if (bad >= 0)
      throw folderError(
        `${this.tokenizerPath} gives the token id ${String(JSON.stringify(all[bad]))}, not a whole number of at least 0.`,
        'Re-save the tokenizer with a recent transformers version.',
      );
    const batch = tokens.length;
    const width = Math.max(1, ...tokens.map((ids) => ids.length));
    const ids = new BigInt64Array(batch * width).fill(BigInt(padId));
    const mask = new BigInt64Array(batch * width);
    tokens.forEach((row, index) => {
      row.forEach((token, column) => {
        ids[index * width + column] = BigInt(token);
        mask[index * width + column] = 1n;
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
    if (output !== undefined && !session.outputNames.includes(output))
      throw folderError(
        `${this.modelPath} has no output "${output}" (it has ${session.outputNames.join(', ')}).`,
        'Export with every hidden state (outputs hidden_states.<n>), or export the model truncated to that layer and leave the layer unset.',
      );
    let outputs: Awaited<ReturnType<Session['run']>>;
    try {
      outputs = await session.run(feeds);
    } catch (error) {
      throw folderError(
        `${this.modelPath} failed on a batch of ${batch}: ${(error as Error).message}`,
        'Export a feature-extraction model taking input_ids and attention_mask of [batch, tokens] and returning [batch, tokens, hidden].',
      );
    }
    const chosen =
      output !== undefined
        ? outputs[output]!
        : (outputs.last_hidden_state ?? outputs[session.outputNames[0]!]!);
    if (!(chosen.data instanceof Float32Array) || chosen.dims.length !== 3 || chosen.dims[0] !== batch)
      throw folderError(
        `${this.modelPath} returned ${chosen.type} [${chosen.dims.join(', ')}], not float32 [${batch}, tokens, hidden].`,
        'Export a feature-extraction model whose output is the last hidden state (or pass the layer to read).',
      );
    return {
      data: chosen.data as Float32Array,
      dims: chosen.dims,
      width,
      tokens,
      content: truncated.map(({ start, end }) => ({ start, end })),
    };
  }

  /** Releases the ONNX session's native memory; a later `encode` loads the model again. */
  async close(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = undefined;
    const session = await loaded?.then(
      (parts) => parts.session,
      () => undefined,
    );
    await session?.release();
  }
}
