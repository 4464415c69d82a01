import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeFingerprint } from '../store/code-fingerprint.js';

/** Which medbench made a run: its version, its git commit (null outside a checkout) and a hash of its code. */
export interface MedbenchIdentity {
  version: string;
  commit: string | null;
  code: string;
}

let commit: string | null | undefined;

/** The package's folder (above `dist/` or `src/`). */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The commit of the checkout medbench runs from; null for an installed package (no `.git` of its own). */
function checkoutCommit(): string | null {
  if (!existsSync(join(ROOT, '.git'))) return null;
  try {
    const text = execFileSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
    return /^[0-9a-f]{40}$/.test(text) ? text : null;
  } catch {
    return null;
  }
}

export function medbenchIdentity(): MedbenchIdentity {
  if (commit === undefined) commit = checkoutCommit();
  // The package's own version (the one `medbench --version` prints, from src/version.ts, is the same).
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  return { version, commit, code: codeFingerprint() };
}
