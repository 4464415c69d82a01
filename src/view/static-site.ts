import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rankedVariants } from '../core/scored-task.js';
import type { Suite } from '../core/suite.js';
import type { Store } from '../store/store.js';
import { promptKey, runKey, SITE_KEY, staticScript } from './shared/static-files.js';
import type { Leaderboard, SiteFile } from './shared/view-types.js';
import { ViewData } from './view-data.js';
import { pageShell, viewerAssets } from './view-server.js';

/** Prompts a static site carries at most (bytes of their files); the rest are left to `medbench view`. */
export const STATIC_PROMPT_BUDGET = 10_000_000;

/**
 * `medbench report --html <folder>`: the viewer as a static site that opens from disk or any
 * static host. One file for the overview and leaderboards, one per run (its page and every
 * result), one per stored prompt within a budget; the page computes lists, samples and
 * comparisons from them with the server's own rules (`shared/`). No endpoint URLs are written.
 */
export function writeStaticSite(
  store: Store,
  folder: string,
  suites: readonly Suite[],
): { files: number; bytes: number; promptsLeftOut: number } {
  const data = new ViewData(store, suites, { hideEndpoints: true });
  const assets = viewerAssets();
  mkdirSync(join(folder, 'data'), { recursive: true });
  let files = 0;
  let bytes = 0;
  const write = (path: string, text: string) => {
    writeFileSync(join(folder, path), text);
    files++;
    bytes += Buffer.byteLength(text);
  };
  write('index.html', pageShell({ mode: 'static', title: 'medbench report' }));
  write('app.js', assets.script);
  write('app.css', assets.styles);
  const leaderboards: Record<string, Leaderboard> = {};
  const ranks: NonNullable<SiteFile['ranks']> = {};
  for (const suite of suites) {
    leaderboards[suite.name] = data.leaderboard(suite.name)!;
    for (const variant of rankedVariants(suite.scoring)) {
      const ranked = data.ranks(suite.name, variant);
      if (ranked) ranks[suite.name] = { ...ranks[suite.name], [variant]: ranked };
    }
  }
  const site: SiteFile = { overview: data.overview(), leaderboards, ranks };
  write(`data/${SITE_KEY}.js`, staticScript(SITE_KEY, packed(site)));
  const written = new Set<string>();
  const leftOut = new Set<string>();
  let promptBytes = 0;
  for (const run of data.runs()) {
    const file = data.runFile(run.id)!;
    const hashIndex = file.rows.columns.indexOf('promptHash');
    const hashes = file.rows.values.flatMap((values) =>
      values[hashIndex] ? [values[hashIndex] as string] : [],
    );
    for (const hash of new Set(hashes)) {
      if (!written.has(hash) && !leftOut.has(hash)) {
        const prompt = store.getPrompt(hash);
        const script = prompt === undefined ? '' : staticScript(promptKey(hash), packed(prompt));
        if (prompt === undefined || promptBytes + script.length > STATIC_PROMPT_BUDGET) leftOut.add(hash);
        else {
          write(`data/${promptKey(hash)}.js`, script);
          promptBytes += script.length;
          written.add(hash);
        }
      }
      if (written.has(hash)) file.prompts.push(hash);
    }
    write(`data/${runKey(run.id)}.js`, staticScript(runKey(run.id), packed(file)));
  }
  return { files, bytes, promptsLeftOut: leftOut.size };
}

/** A payload's JSON, gzipped (level 9: written once, read many times). */
function packed(payload: unknown): Uint8Array {
  return gzipSync(JSON.stringify(payload), { level: 9 });
}
