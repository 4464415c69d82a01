import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Suite } from '../core/suite.js';
import type { Store } from '../store/store.js';
import { seedOf } from './statistics.js';
import { ViewData } from './view-data.js';
import { apiPayload, pageShell, viewerAssets } from './view-server.js';

/** The file key of an API request in the static site: the same FNV-1a the page computes. */
export function staticKey(route: string, parameters: Record<string, string>): string {
  const query = Object.keys(parameters)
    .sort()
    .map((name) => `${name}=${parameters[name]}`)
    .join('&');
  return `${route}-${seedOf(`${route}?${query}`).toString(16).padStart(8, '0')}`;
}

/**
 * `medbench report --html <folder>`: the viewer as a static site that opens from disk. Every
 * payload the pages can ask for is written beforehand as `data/<key>.js`, loaded on demand by
 * a script tag (browsers refuse fetch() on file://), so a page still loads only what it shows.
 */
export function writeStaticSite(store: Store, folder: string, suites: readonly Suite[]): { files: number } {
  // No endpoint URLs in a site that may be published: run models and error texts leave them out.
  const data = new ViewData(store, suites, { hideEndpoints: true });
  const assets = viewerAssets();
  mkdirSync(join(folder, 'data'), { recursive: true });
  writeFileSync(join(folder, 'index.html'), pageShell({ mode: 'static', title: 'medbench report' }));
  writeFileSync(join(folder, 'app.js'), assets.script);
  writeFileSync(join(folder, 'app.css'), assets.styles);
  let files = 3;
  const emit = (route: string, parameters: Record<string, string>) => {
    const payload = apiPayload(data, route, new URLSearchParams(parameters));
    if (payload === undefined) return;
    const key = staticKey(route, parameters);
    // JSON is valid JavaScript; "</" is escaped so no payload can close a script element.
    const json = JSON.stringify(payload)
      .replaceAll('</', '<\\/')
      .replaceAll('\u2028', '\\u2028')
      .replaceAll('\u2029', '\\u2029');
    writeFileSync(
      join(folder, 'data', `${key}.js`),
      `window.medbenchStatic(${JSON.stringify(key)}, ${json});\n`,
    );
    files++;
  };
  emit('overview', {});
  for (const suite of suites) emit('leaderboard', { suite: suite.name });
  const runs = data.runs();
  for (const run of runs) {
    emit('run', { id: run.id });
    const rows = data.scoreRows(run.id);
    for (const group of new Set(rows.map((row) => data.groupOf(run.suite, row))))
      emit('samples', { run: run.id, group });
    for (const row of rows) emit('sample', { run: run.id, id: row.sampleId });
  }
  for (const left of runs)
    for (const right of runs) {
      if (left.id === right.id || left.datasetId !== right.datasetId) continue;
      for (const group of new Set(data.scoreRows(left.id).map((row) => data.groupOf(left.suite, row))))
        emit('compare', { a: left.id, b: right.id, group });
    }
  return { files };
}
