import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** All state (store, caches, reports) lives under one folder: --home, MEDBENCH_HOME, or ~/.medbench. */
export function resolveHome(
  option: string | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): string {
  return resolve(option ?? environment.MEDBENCH_HOME ?? join(homedir(), '.medbench'));
}

export function storePathIn(home: string): string {
  return join(home, 'medbench.sqlite');
}

/** The package root (holding samples/), from either src/compose or dist/compose. */
export function packageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
}

/** Where embedding vectors are cached: beside the store, in their own file. */
export function embeddingCachePathIn(home: string): string {
  return join(home, 'embeddings.sqlite');
}
