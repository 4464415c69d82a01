import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { resolveDatasetFolder } from './release.js';

/** Every file under `folder`, sorted, as paths relative to `root`. */
function filesUnder(folder: string, root: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return filesUnder(path, root);
      return entry.isFile() ? [relative(root, path)] : [];
    })
    .sort();
}

/**
 * SHA-256 of the release files a build can read, by path (`release/task_data/…`,
 * `release/raw_data/…`, `sources/…`, `counting-draws`, `prompts`): the dataset header records them,
 * and a run's manifest of the dataset carries them.
 */
export function releaseFileHashes(inputs: {
  data?: string | undefined;
  sources?: string | undefined;
  countingDraws?: string | null | undefined;
  prompts?: string | null | undefined;
}): Record<string, string> {
  const hashes: Record<string, string> = {};
  const add = (name: string, path: string) => {
    hashes[name] = createHash('sha256').update(readFileSync(path)).digest('hex');
  };
  if (inputs.data) {
    const root = resolveDatasetFolder(inputs.data);
    for (const part of ['task_data', 'raw_data']) {
      const folder = join(root, part);
      if (statSync(folder, { throwIfNoEntry: false })?.isDirectory())
        for (const file of filesUnder(folder, root)) add(`release/${file}`, join(root, file));
    }
  }
  if (inputs.sources)
    for (const file of filesUnder(inputs.sources, inputs.sources))
      add(`sources/${file}`, join(inputs.sources, file));
  if (inputs.countingDraws) add('counting-draws', inputs.countingDraws);
  if (inputs.prompts) add('prompts', inputs.prompts);
  return hashes;
}
