import { sharedPool } from '../../io/worker-pool.js';
import { wordTokens } from './word-tokens.js';

/** Texts as term ids: text i's ids are ids[starts[i], starts[i + 1]), ids index `vocabulary`. */
export interface TokenizedTexts {
  vocabulary: string[];
  ids: Int32Array;
  starts: Int32Array;
}

/** Word tokens of each text as ids into a vocabulary in order of first appearance. */
export function tokenizeTexts(texts: readonly string[]): TokenizedTexts {
  const termIds = new Map<string, number>();
  const vocabulary: string[] = [];
  const starts = new Int32Array(texts.length + 1);
  let ids = new Int32Array(1024);
  let size = 0;
  texts.forEach((text, index) => {
    for (const token of wordTokens(text)) {
      let id = termIds.get(token);
      if (id === undefined) {
        id = vocabulary.length;
        termIds.set(token, id);
        vocabulary.push(token);
      }
      if (size === ids.length) {
        const grown = new Int32Array(ids.length * 2);
        grown.set(ids);
        ids = grown;
      }
      ids[size++] = id;
    }
    starts[index + 1] = size;
  });
  return { vocabulary, ids: ids.slice(0, size), starts };
}

const tokenPool = sharedPool<string[], TokenizedTexts>(new URL('./bm25-tokens-worker.js', import.meta.url));

/** Below this many characters a corpus is tokenized in this thread: a worker's start costs more. */
const PARALLEL_MIN_CHARS = 2_000_000;

/**
 * A corpus's word tokens as one vocabulary and each document's term ids, the same whichever way it
 * is computed: on worker threads (one chunk of documents a job, vocabularies merged in document
 * order) for a large corpus when there is more than one core, else in this thread.
 */
export async function tokenizeCorpus(
  corpus: readonly string[],
  options: { parallelMinChars?: number } = {},
): Promise<{ termIds: Map<string, number>; documentTerms: Int32Array[]; threads: number }> {
  let characters = 0;
  for (const text of corpus) characters += text.length;
  const large = characters >= (options.parallelMinChars ?? PARALLEL_MIN_CHARS);
  const workers = large ? tokenPool() : undefined;
  const chunkCount = workers ? workers.size * 4 : 1;
  const chunkSize = Math.ceil(corpus.length / chunkCount);
  const chunks: Array<readonly string[]> = [];
  for (let from = 0; from < corpus.length; from += chunkSize)
    chunks.push(corpus.slice(from, from + chunkSize));
  const parts = workers
    ? await Promise.all(chunks.map((chunk) => workers.run([...chunk])))
    : chunks.map((chunk) => tokenizeTexts(chunk));
  const termIds = new Map<string, number>();
  const documentTerms: Int32Array[] = [];
  for (const part of parts) {
    // The chunk's own ids → the corpus's, assigned in order of first appearance as in one pass.
    const global = Int32Array.from(part.vocabulary, (term) => {
      let id = termIds.get(term);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(term, id);
      }
      return id;
    });
    for (let slot = 0; slot < part.ids.length; slot++) part.ids[slot] = global[part.ids[slot]!]!;
    for (let text = 0; text + 1 < part.starts.length; text++) {
      documentTerms.push(part.ids.subarray(part.starts[text]!, part.starts[text + 1]!));
    }
  }
  return { termIds, documentTerms, threads: workers ? workers.size : 1 };
}
