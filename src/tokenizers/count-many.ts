import type { Tokenizer } from '../core/tokenizer.js';
import { sharedPool } from '../io/worker-pool.js';
import { getTokenizer } from './registry.js';

export interface CountJob {
  tokenizer: string;
  texts: string[];
}

/** How `countMany` counted: for benches and tests, which must see the parallel path taken. */
export type CountPath = 'native' | 'workers' | 'in-thread';

const countPool = sharedPool<CountJob, Float64Array>(new URL('./count-worker.js', import.meta.url));

/**
 * Below this many characters worker threads do not pay: each loads the vocabulary (about 0.4 s
 * for o200k), and the exact build's haystacks (1–2 M characters each) counted in this thread
 * took 1.60–1.74 s against 1.85–2.03 s on two workers.
 */
const PARALLEL_MIN_CHARS = 8_000_000;

/**
 * The token counts of many texts, each as `tokenizer.count` gives it, by the fastest path there
 * is: the tokenizer's own bulk counter (a native implementation using every core), else worker
 * threads (one per core, the texts dealt out in chunks of similar length), else this thread.
 */
export async function countMany(
  tokenizer: Tokenizer,
  texts: readonly string[],
  options: { onPath?: (path: CountPath) => void; parallelMinChars?: number } = {},
): Promise<Float64Array> {
  const native = await tokenizer.countMany?.(texts);
  if (native) {
    options.onPath?.('native');
    return Float64Array.from(native);
  }
  let characters = 0;
  for (const text of texts) characters += text.length;
  // A worker loads the tokenizer by name: only the registry's own can be counted there.
  const named = await getTokenizer(tokenizer.name).catch(() => undefined);
  const large = characters >= (options.parallelMinChars ?? PARALLEL_MIN_CHARS);
  const workers = large && named === tokenizer ? countPool() : undefined;
  if (!workers) {
    options.onPath?.('in-thread');
    const counts = new Float64Array(texts.length);
    for (let index = 0; index < texts.length; index++) counts[index] = tokenizer.count(texts[index]!);
    return counts;
  }
  options.onPath?.('workers');
  // Chunks of about equal characters, several per worker so a slow one does not hold the rest.
  const target = Math.ceil(characters / (workers.size * 4));
  const chunks: Array<{ from: number; texts: string[] }> = [];
  let current: string[] = [];
  let from = 0;
  let size = 0;
  texts.forEach((text, index) => {
    current.push(text);
    size += text.length;
    if (size >= target) {
      chunks.push({ from, texts: current });
      current = [];
      from = index + 1;
      size = 0;
    }
  });
  if (current.length > 0) chunks.push({ from, texts: current });
  const counts = new Float64Array(texts.length);
  await Promise.all(
    chunks.map(async (chunk) => {
      const part = await workers.run({ tokenizer: tokenizer.name, texts: chunk.texts });
      counts.set(part, chunk.from);
    }),
  );
  return counts;
}
