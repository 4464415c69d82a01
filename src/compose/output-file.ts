import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileError } from '../core/errors.js';

/**
 * Writes a file a command was asked for (a report, an export): its folder is created if
 * missing, and the file appears only whole (written beside it, then renamed). Any failure is a
 * clear error naming the path.
 */
export function writeOutputFile(path: string, content: string | Buffer): void {
  const target = resolve(path);
  const partial = `${target}.partial`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(partial, content);
    renameSync(partial, target);
  } catch (error) {
    removePartial(partial);
    throw fileError(error, { path, action: 'write' });
  }
}

/** Removes what a failed write left; where the folder itself could not be made there is nothing to remove. */
function removePartial(partial: string): void {
  try {
    rmSync(partial, { force: true });
  } catch {
    // ENOTDIR, EACCES: the write's own error says what is wrong.
  }
}
