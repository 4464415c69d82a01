import { readFileSync } from 'node:fs';
import { postProcessorProblem } from './post-processor-problem.js';
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
 * binary fits this platform or the file is one it cannot read or would panic on
 * (`postProcessorProblem`: a panic there aborts the process): callers then use a pure-JS
 * tokenizer or say what is wrong. The text checked is the text the library reads. Its batch
 * encoder spreads over every core (rayon); MEDBENCH_THREADS, when set, caps that pool as it
 * caps medbench's worker threads.
 */
export async function loadNativeTokenizer(tokenizerPath: string): Promise<NativeTokenizer | undefined> {
  try {
    const text = readFileSync(tokenizerPath, 'utf8');
    if (postProcessorProblem(JSON.parse(text))) return undefined;
    if (process.env.MEDBENCH_THREADS && !process.env.RAYON_NUM_THREADS)
      process.env.RAYON_NUM_THREADS = String(threadsWanted());
    const { Tokenizer } = (await import('@anush008/tokenizers')) as unknown as {
      Tokenizer: { fromString(json: string): NativeTokenizer };
    };
    return Tokenizer.fromString(text);
  } catch {
    return undefined;
  }
}
