import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under a folder, at any depth. */
export function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Each file under `folder` holding one of the texts (its bytes read as UTF-8 and as UTF-16), as
 * "path: text": what `--redact` must leave on disk is none.
 */
export function textLeaks(folder: string, texts: readonly string[]): string[] {
  return filesUnder(folder).flatMap((path) => {
    const bytes = readFileSync(path);
    const content = `${bytes.toString('utf8')}\n${bytes.toString('utf16le')}`;
    return texts.filter((text) => content.includes(text)).map((text) => `${path}: ${text}`);
  });
}
