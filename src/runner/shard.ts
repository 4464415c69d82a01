import { createHash } from 'node:crypto';
import { MedbenchError } from '../core/errors.js';

/** One of n machines' share of a run: shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
  /** Where `--shard auto` found it (`Slurm SLURM_ARRAY_TASK_ID=3 of 1-4:1`), shown with the run. */
  from?: string;
}

/** `i/n` as a shard, or a usage error naming the flag. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--shard ${text}: give i/n with 1 ≤ i ≤ n, e.g. --shard 2/4, or auto (a Kubernetes Indexed Job's or a Slurm array's own index).`,
    });
  return { index, count };
}

/**
 * The samples of one shard: each sample id hashed (SHA-256) into one of `count` shares, so the
 * split does not depend on the samples' order or on which machine asks, and the n shards
 * together hold every sample exactly once.
 */
export function samplesOfShard<T extends { id: string }>(
  samples: readonly T[],
  shard: Shard | undefined,
): T[] {
  if (!shard || shard.count === 1) return [...samples];
  return samples.filter(
    (sample) =>
      Number.parseInt(createHash('sha256').update(sample.id).digest('hex').slice(0, 8), 16) % shard.count ===
      shard.index - 1,
  );
}
