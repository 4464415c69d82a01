import { PythonRandom } from './python-random.js';

/** How to order a dataset before the first k items become the shots. */
export type ShuffleMode = { kind: 'python'; seed: number } | { kind: 'seeded'; seed: string };

/** FNV-1a of a string, folded to a non-negative integer seed for PythonRandom. */
function seedNumber(seed: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < seed.length; index++)
    hash = Math.imul(hash ^ seed.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/**
 * Shuffles a copy of `items`. `python` reproduces `random.seed(seed); random.shuffle(items)`
 * exactly (the published splits used seed 1); `seeded` uses the same generator under a
 * seed derived from a string, so each task can have its own stream.
 */
export function shuffled<T>(items: readonly T[], mode: ShuffleMode): T[] {
  const random = new PythonRandom(mode.kind === 'python' ? mode.seed : seedNumber(mode.seed));
  return random.shuffle([...items]);
}
