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
    rmSync(partial, { force: true });
    throw fileError(error, { path, action: 'write' });
  }
}
