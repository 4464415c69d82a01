import { seedOf } from '../../metrics/uncertainty/index.js';

/**
 * The static site's files: `data/site.js` (overview and leaderboards), one `data/run-<key>.js`
 * per run and one `data/prompt-<hash>.js` per stored prompt. Each is a script calling
 * `window.medbenchStatic(key, data)`, since browsers refuse fetch() on file://.
 */
export const SITE_KEY = 'site';

/** A run's file key: its id when that is a safe file name, else the id's FNV-1a hash. */
export function runKey(runId: string): string {
  return /^[A-Za-z0-9_-]{1,80}$/.test(runId)
    ? `run-${runId}`
    : `run-${seedOf(runId).toString(16).padStart(8, '0')}`;
}

/** A prompt's file key, by its content hash. */
export function promptKey(hash: string): string {
  return `prompt-${hash.replace(/[^A-Za-z0-9]/g, '').slice(0, 64)}`;
}

/**
 * The script text of one payload: its JSON gzipped and in base64 (a run's results shrink about
 * fivefold), which the page inflates with the browser's DecompressionStream. Base64 holds no
 * character that could close the script element.
 */
export function staticScript(key: string, gzippedJson: Uint8Array): string {
  return `window.medbenchStatic(${JSON.stringify(key)}, "${toBase64(gzippedJson)}");\n`;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}

/** A payload back from its script's base64 text (the page's side of `staticScript`). */
export async function inflatePayload(base64: string): Promise<unknown> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text());
}
