import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

let memo: string | undefined;

function codeFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return codeFiles(path);
      return /\.(js|ts)$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [path] : [];
    })
    .sort();
}

/**
 * A hash of the code that is running (every module of the package's `dist/` or `src/`): a saved
 * leaderboard is used only by the code that computed it, so a new medbench never shows numbers
 * an older scorer wrote.
 */
export function codeFingerprint(): string {
  if (memo === undefined) {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..');
    const hash = createHash('sha256');
    for (const file of codeFiles(root))
      hash.update(relative(root, file)).update('\0').update(readFileSync(file));
    memo = hash.digest('hex');
  }
  return memo;
}
