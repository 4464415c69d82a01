import { existsSync, statfsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MedbenchError } from '../core/errors.js';

/**
 * Linux's kernel file systems (statfs magic numbers): they hold no files of ours, and on /proc
 * Node's recursive mkdir never returns.
 */
const KERNEL_FILE_SYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x6165676c, 'pstore'],
  [0x62656570, 'configfs'],
  [0xcafe4a11, 'bpf'],
  [0xde5e81e4, 'efivarfs'],
  [0x1cd1, 'devpts'],
  [0x6e736673, 'nsfs'],
  [0x19800202, 'mqueue'],
  [0x42494e4d, 'binfmt_misc'],
  [0x65735543, 'fusectl'],
]);

/** All state (store, caches, reports) lives under one folder: --home, MEDBENCH_HOME, or ~/.medbench. */
export function resolveHome(
  option: string | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): string {
  const home = resolve(option ?? environment.MEDBENCH_HOME ?? join(homedir(), '.medbench'));
  const kind = kernelFileSystemOf(home);
  if (kind) {
    const from =
      option !== undefined ? '--home' : environment.MEDBENCH_HOME ? 'MEDBENCH_HOME' : 'the default';
    throw new MedbenchError({
      code: 'USAGE',
      message: `The medbench home ${home} (${from}) is on the kernel's ${kind} file system, which cannot hold files.`,
      hint: 'Choose a folder on a disk with --home or MEDBENCH_HOME (the default is ~/.medbench).',
    });
  }
  return home;
}

/** The kernel file system holding `path` (or the nearest folder above it that exists), if any. */
function kernelFileSystemOf(path: string): string | undefined {
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    return KERNEL_FILE_SYSTEMS.get(statfsSync(existing).type);
  } catch {
    // No statfs here (or no access): writing says what is wrong.
    return undefined;
  }
}

/** The store file (medbench.sqlite) of a home folder. */
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
