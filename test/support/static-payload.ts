import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** The JSON text of a static site's data file, read as the page reads it (base64 of gzip). */
export function staticPayloadText(path: string): string {
  const text = readFileSync(path, 'utf8');
  const base64 = text.slice(text.indexOf(', "') + 3, text.lastIndexOf('")'));
  return gunzipSync(Buffer.from(base64, 'base64')).toString('utf8');
}
