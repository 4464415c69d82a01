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
  /** A token's id (vocabulary and added tokens), or null. */
  tokenToId(token: string): number | null;
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
export async function loadNativeTokenizer(
  tokenizerPath: string,
  /** The file's text and JSON when the caller has read them already. */
  read?: { text: string; json: unknown },
): Promise<NativeTokenizer | undefined> {
  try {
    const text = read?.text ?? readFileSync(tokenizerPath, 'utf8');
    if (postProcessorProblem(read ? read.json : JSON.parse(text))) return undefined;
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
