import { threadsWanted } from './worker-pool.js';

/** What medbench uses of Hugging Face's Rust tokenizers (the `@anush008/tokenizers` binding). */
export interface NativeEncoding {
  getLength(): number;
  getIds(): number[];
  getSequenceIds(): Array<number | null | undefined>;
}

export interface NativeTokenizer {
  encodeBatch(texts: string[], options: { addSpecialTokens: boolean }): Promise<NativeEncoding[]>;
  disableTruncation(): void;
  disablePadding(): void;
}

/**
 * Hugging Face's Rust tokenizers on `tokenizerPath` (a tokenizer.json), or undefined where no
 * binary fits this platform or the file is one it cannot read: callers then use a pure-JS
 * tokenizer. Its batch encoder spreads over every core (rayon); MEDBENCH_THREADS, when set,
 * caps that pool as it caps medbench's worker threads.
 */
export async function loadNativeTokenizer(tokenizerPath: string): Promise<NativeTokenizer | undefined> {
  try {
    if (process.env.MEDBENCH_THREADS && !process.env.RAYON_NUM_THREADS)
      process.env.RAYON_NUM_THREADS = String(threadsWanted());
    const { Tokenizer } = (await import('@anush008/tokenizers')) as unknown as {
      Tokenizer: { fromFile(path: string): NativeTokenizer };
    };
    return Tokenizer.fromFile(tokenizerPath);
  } catch {
    return undefined;
  }
}
