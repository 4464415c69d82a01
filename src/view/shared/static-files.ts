import { seedOf } from './statistics.js';

/**
 * The static site's files: `data/site.js` (overview and leaderboards), one `data/run-<key>.js`
 * per run and one `data/prompt-<hash>.js` per stored prompt. Each is a script calling
 * `window.medbenchStatic(key, payload)`, since browsers refuse fetch() on file://.
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

/** The script text of one payload. "</" and line separators are escaped so nothing closes the script. */
export function staticScript(key: string, payload: unknown): string {
  const json = JSON.stringify(payload)
    .replaceAll('</', '<\\/')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
  return `window.medbenchStatic(${JSON.stringify(key)}, ${json});\n`;
}
