import type { EncodedTokens, TokenEncoder } from '../../core/token-encoder.js';
import { sharedPool } from '../../io/worker-pool.js';
import { bertScoreFromTokens, type TokenVectors } from '../../metrics/bertscore.js';

/** A text's token vectors in one array (rows × hidden), as they cross to a worker thread. */
export interface PackedTokens {
  data: Float32Array;
  rows: number;
  start: number;
  end: number;
}

/** Pairs to score on a worker: their texts, and each pair as two indexes into them. */
export interface BertScoreJob {
  texts: PackedTokens[];
  pairs: Uint32Array;
}

/**
 * A text's vectors as one array: the block they are views of when they lie in one run of shared
 * memory (as the local ONNX encoder gives them; a worker then reads them without a copy), else a
 * copy (moved to the worker).
 */
export function packTokens(tokens: EncodedTokens): PackedTokens {
  const hidden = tokens.vectors[0]?.length ?? 0;
  const shared = sharedBlock(tokens.vectors, hidden);
  if (shared) return { data: shared, rows: tokens.vectors.length, start: tokens.start, end: tokens.end };
  const data = new Float32Array(tokens.vectors.length * hidden);
  tokens.vectors.forEach((vector, row) => {
    data.set(vector, row * hidden);
  });
  return { data, rows: tokens.vectors.length, start: tokens.start, end: tokens.end };
}

/** The shared-memory block `vectors` are consecutive views of, or undefined. */
function sharedBlock(vectors: readonly Float32Array[], hidden: number): Float32Array | undefined {
  const first = vectors[0];
  if (!first || !(first.buffer instanceof SharedArrayBuffer)) return undefined;
  for (let row = 0; row < vectors.length; row++) {
    const vector = vectors[row]!;
    if (vector.buffer !== first.buffer || vector.byteOffset !== first.byteOffset + row * hidden * 4)
      return undefined;
    if (vector.length !== hidden) return undefined;
  }
  return new Float32Array(first.buffer, first.byteOffset, vectors.length * hidden);
}

export function unpackTokens(packed: PackedTokens): TokenVectors {
  const hidden = packed.rows === 0 ? 0 : packed.data.length / packed.rows;
  return {
    vectors: Array.from({ length: packed.rows }, (_, row) =>
      packed.data.subarray(row * hidden, (row + 1) * hidden),
    ),
    start: packed.start,
    end: packed.end,
  };
}

const matchPool = sharedPool<BertScoreJob, Float64Array>(new URL('./bertscore-worker.js', import.meta.url));

/** Below this many multiply-adds (all pairs' token products) the matching stays in this thread. */
const PARALLEL_MIN_PRODUCTS = 50_000_000;

/**
 * The F1 of each pair by `bertScoreFromTokens`: in this thread for a small pass, else on worker
 * threads (one per core), the pairs dealt out in chunks of about equal work, several per worker.
 */
export async function matchPairs(
  pairs: ReadonlyArray<readonly [EncodedTokens, EncodedTokens]>,
  options: { parallelMinProducts?: number; onPath?: (path: 'workers' | 'in-thread') => void } = {},
): Promise<Float64Array> {
  const work = pairs.map(
    ([candidate, reference]) =>
      candidate.vectors.length * reference.vectors.length * (candidate.vectors[0]?.length ?? 0),
  );
  const total = work.reduce((sum, value) => sum + value, 0);
  const pool = total >= (options.parallelMinProducts ?? PARALLEL_MIN_PRODUCTS) ? matchPool() : undefined;
  const f1s = new Float64Array(pairs.length);
  options.onPath?.(pool ? 'workers' : 'in-thread');
  if (!pool) {
    pairs.forEach(([candidate, reference], index) => {
      f1s[index] = bertScoreFromTokens(candidate, reference).f1;
    });
    return f1s;
  }
  const target = total / (pool.size * 4);
  const jobs: Array<{ from: number; to: number }> = [];
  let from = 0;
  let size = 0;
  work.forEach((value, index) => {
    size += value;
    if (size >= target || index === work.length - 1) {
      jobs.push({ from, to: index + 1 });
      from = index + 1;
      size = 0;
    }
  });
  await Promise.all(
    jobs.map(async ({ from, to }) => {
      const texts: PackedTokens[] = [];
      const indexes = new Map<EncodedTokens, number>();
      const indexOf = (tokens: EncodedTokens) => {
        let index = indexes.get(tokens);
        if (index === undefined) {
          index = texts.push(packTokens(tokens)) - 1;
          indexes.set(tokens, index);
        }
        return index;
      };
      const job = new Uint32Array(2 * (to - from));
      for (let pair = from; pair < to; pair++) {
        job[2 * (pair - from)] = indexOf(pairs[pair]![0]);
        job[2 * (pair - from) + 1] = indexOf(pairs[pair]![1]);
      }
      const moved = texts.flatMap((text) =>
        text.data.buffer instanceof SharedArrayBuffer ? [] : [text.data.buffer as ArrayBuffer],
      );
      const part = await pool.run({ texts, pairs: job }, moved);
      f1s.set(part, from);
    }),
  );
  return f1s;
}

/** BERTScore F1 of each (prediction, reference) pair, encoding texts in the encoder's batches. */
export async function bertScoreF1s(
  pairs: ReadonlyArray<{ prediction: string; reference: string }>,
  encoder: TokenEncoder,
): Promise<number[]> {
  const texts = [...new Set(pairs.flatMap((pair) => [pair.prediction, pair.reference]))];
  const encoded = new Map<string, EncodedTokens>();
  for (let start = 0; start < texts.length; start += encoder.batchSize) {
    const batch = texts.slice(start, start + encoder.batchSize);
    const vectors = await encoder.encodeTokens(batch);
    batch.forEach((text, index) => {
      encoded.set(text, vectors[index]!);
    });
  }
  const f1s = await matchPairs(
    pairs.map((pair) => [encoded.get(pair.prediction)!, encoded.get(pair.reference)!] as const),
  );
  return [...f1s];
}
