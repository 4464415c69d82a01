import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadNativeTokenizer, type NativeTokenizer } from '../../io/native-tokenizer.js';
import { postProcessorProblem } from '../../io/post-processor-problem.js';
import { describeValue, parseJsonText, readJsonFile, readTextFile } from '../../io/text-file.js';
import { folderError } from './folder-error.js';

/** One text ready for the encoder: its ids (special tokens included) and where its own tokens lie. */
export interface EncoderTokens {
  ids: number[];
  start: number;
  end: number;
}

/** Which implementation tokenised: HF's Rust tokenizers on every core, or the pure-JS port in this thread. */
export type EncoderTokenizerPath = 'native' | 'in-thread';

interface ScriptTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
  pad_token_id?: number;
  model_max_length?: number;
}

/** Texts per native batch: enough for its threads, few enough that the encodings stay small. */
const NATIVE_BATCH = 1_000;

/**
 * Cuts a tokenised text to `maxLength` the way Hugging Face tokenizers do: the content is
 * shortened and the special tokens around it are kept. Returns the ids and the content range.
 */
export function truncateKeepingSpecials(
  withSpecials: number[],
  plain: number[],
  maxLength: number,
): EncoderTokens {
  let start = 0;
  while (start < withSpecials.length && withSpecials[start] !== plain[0]) start++;
  if (plain.length === 0) start = withSpecials.length;
  return keepWithin(withSpecials, start, start + plain.length, maxLength);
}

/** `ids` whose content is `start`–`end`, its content cut so that the whole fits `maxLength`. */
function keepWithin(ids: number[], start: number, end: number, maxLength: number): EncoderTokens {
  const specials = ids.length - (end - start);
  const kept = Math.min(end - start, Math.max(0, maxLength - specials));
  if (kept === end - start) return { ids, start, end };
  return { ids: [...ids.slice(0, start + kept), ...ids.slice(end)], start, end: start + kept };
}

/**
 * The tokenizer of a local encoder folder (tokenizer.json + tokenizer_config.json). Batches go
 * through Hugging Face's Rust tokenizers, the implementation `transformers` itself runs, spread
 * over every core, in one pass per text (its sequence ids tell the text's tokens from the
 * special ones); where no binary fits the platform, or it cannot read the file, through
 * @lenml's pure-JS port, which needs two passes (with and without special tokens). Both give
 * the same ids (a test and `bench/encoder-tokenizer.js` compare them).
 */
export class EncoderTokenizer {
  private constructor(
    private readonly encoder: { script: ScriptTokenizer } | { native: NativeTokenizer },
    /** The padding id the tokenizer declares, else 0. */
    readonly padId: number,
    /** The tokenizer's model_max_length, when it declares a real one. */
    readonly declaredMaxLength: number | undefined,
  ) {}

  /**
   * Loads `tokenizerPath` (tokenizer.json, parsed once); `prefer: 'in-thread'` skips the native
   * tokenizer (benches, tests). The pure-JS port is built only when the native one is not used:
   * building it takes about a second for Llama 3's vocabulary.
   */
  static async load(
    tokenizerPath: string,
    options: { prefer?: EncoderTokenizerPath } = {},
  ): Promise<EncoderTokenizer> {
    const configPath = join(tokenizerPath, '..', 'tokenizer_config.json');
    const text = readTextFile(tokenizerPath);
    const json = parseJsonText(text, tokenizerPath) as Record<string, unknown>;
    // Hugging Face's own library cannot encode with such a file (it panics), so neither path does.
    const problem = postProcessorProblem(json);
    if (problem)
      throw folderError(
        `${tokenizerPath}: ${problem}.`,
        'Restore the tokenizer.json the model was released with, or re-save it with transformers (save_pretrained).',
      );
    const config = existsSync(configPath) ? readJsonFile(configPath) : {};
    if (config === null || typeof config !== 'object' || Array.isArray(config))
      throw folderError(
        `${configPath}: expected a JSON object; found ${describeValue(config)}.`,
        'Restore the tokenizer_config.json the model was released with.',
      );
    const native =
      options.prefer === 'in-thread' ? undefined : await loadNativeTokenizer(tokenizerPath, { text, json });
    if (native) {
      // tokenizer.json may carry its own truncation and padding; medbench applies its own.
      native.disableTruncation();
      native.disablePadding();
      // As the pure-JS port (transformers.js) reads them: the pad token, else the end-of-text one.
      const pad = configToken(config, 'pad_token') ?? configToken(config, 'eos_token');
      const padId = pad === undefined ? 0 : (native.tokenToId(pad) ?? 0);
      return new EncoderTokenizer(
        { native },
        padId,
        realMaxLength((config as { model_max_length?: unknown }).model_max_length),
      );
    }
    const { TokenizerLoader } = await import('@lenml/tokenizers');
    let script: ScriptTokenizer;
    try {
      script = TokenizerLoader.fromPreTrained({
        tokenizerJSON: json,
        tokenizerConfig: config,
      }) as unknown as ScriptTokenizer;
    } catch (error) {
      throw folderError(
        `${tokenizerPath} cannot be loaded: ${(error as Error).message}`,
        'Re-save the tokenizer with a recent transformers version.',
      );
    }
    return new EncoderTokenizer({ script }, script.pad_token_id ?? 0, realMaxLength(script.model_max_length));
  }

  /** Each text's ids with the special tokens, its content cut to fit `maxLength`. */
  /** Which implementation tokenises. */
  get path(): EncoderTokenizerPath {
    return 'native' in this.encoder ? 'native' : 'in-thread';
  }

  async tokenize(texts: readonly string[], maxLength: number): Promise<EncoderTokens[]> {
    if ('script' in this.encoder) {
      const { script } = this.encoder;
      return texts.map((text) =>
        truncateKeepingSpecials(
          script.encode(text),
          script.encode(text, { add_special_tokens: false }),
          maxLength,
        ),
      );
    }
    const { native } = this.encoder;
    const tokenized: EncoderTokens[] = [];
    for (let from = 0; from < texts.length; from += NATIVE_BATCH) {
      const encodings = await native.encodeBatch(texts.slice(from, from + NATIVE_BATCH), {
        addSpecialTokens: true,
      });
      for (const encoding of encodings) {
        const sequence = encoding.getSequenceIds();
        let start = 0;
        while (start < sequence.length && sequence[start] !== 0) start++;
        let end = start;
        while (end < sequence.length && sequence[end] === 0) end++;
        tokenized.push(keepWithin(encoding.getIds(), start, end, maxLength));
      }
    }
    return tokenized;
  }
}

/** A special token of tokenizer_config.json: a string, or an added token's `content`. */
function configToken(config: object, key: string): string | undefined {
  const value = (config as Record<string, unknown>)[key];
  if (typeof value === 'string' && value !== '') return value;
  const content = (value as { content?: unknown } | null | undefined)?.content;
  return typeof content === 'string' && content !== '' ? content : undefined;
}

/** A declared model_max_length, unless it is transformers' "no limit" placeholder (about 1e30). */
function realMaxLength(declared: unknown): number | undefined {
  return typeof declared === 'number' && declared > 0 && declared < 1e9 ? declared : undefined;
}
