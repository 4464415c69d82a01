// Viewer at scale: a store of MedOdyssey-shaped NIAH results, by default 20 models ×
// 30,000 samples = 600,000 results and 30,000 distinct prompts (4k–200k characters), then the
// viewer's API timed cold: the leaderboard (saved by the run's end, as `medbench run` does), a run
// page, a sample list and a sample page. References in the same run: one bare SQLite pass over
// every result row, and computing the leaderboard from every row. Targets: leaderboard < 0.2 s,
// sample page < 1 s.
// Usage: npm run build && node --max-old-space-size=8192 bench/view.js [models] [samples] [prompt scale] [keep path]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SUITES } from '../dist/compose/suites.js';
import { NO_MODEL_CALL, Store } from '../dist/store/store.js';
import { suiteLeaderboard } from '../dist/store/suite-leaderboard.js';
import { medodysseySuite } from '../dist/suites/medodyssey/suite.js';
import { startViewServer } from '../dist/view/view-server.js';

const models = Number(process.argv[2] ?? 20);
const samplesPerModel = Number(process.argv[3] ?? 30000);
// A smaller scale shortens prompts (for quick iterations); timings are quoted at 1.
const promptScale = Number(process.argv[4] ?? 1);
// Keep the store at this path (to profile it again) instead of deleting it.
const keep = process.argv[5];
const folder = mkdtempSync(join(tmpdir(), 'medbench-view-bench-'));
const path = keep ?? join(folder, 'medbench.sqlite');
const levels = [4000, 8000, 16000, 32000, 64000, 128000, 200000];
const depths = [0, 25, 50, 75, 100];
const base = '患者男，65岁，因反复胸闷气短3年加重1周入院。The patient was admitted with chest pain. ';
const promptOf = (index) =>
  `${index} ${base.repeat(Math.ceil((promptScale * levels[index % levels.length] * (0.5 + (index % 3))) / base.length))}`;

let started = performance.now();
const store = new Store(path);
const samples = Array.from({ length: samplesPerModel }, (_, index) => ({
  id: `niah-${index % 2 ? 'zh' : 'en'}-${index}`,
  params: {
    language: index % 2 ? 'zh' : 'en',
    level: levels[index % levels.length],
    depth: depths[Math.floor(index / 7) % depths.length],
    needleId: index % 20,
  },
}));
for (let model = 0; model < models; model++) {
  const run = {
    id: `run${String(model).padStart(13, '0')}`,
    suite: 'medodyssey',
    label: `model-${model}`,
    datasetId: 'bench',
    datasetPath: null,
    model: { provider: 'bench', modelId: `model-${model}`, contextWindow: 200000 },
    parameters: {},
    source: 'medbench',
    scoringMode: 'standard',
    createdAt: new Date().toISOString(),
  };
  store.transaction(() => {
    store.ensureRun(run);
    samples.forEach((sample, index) => {
      const correct = (index * 7 + model * 13) % 10 < 6 ? 1 : 0;
      store.putResult({
        runId: run.id,
        sampleId: sample.id,
        task: 'niah',
        params: sample.params,
        gold: { answers: ['林晚舟'] },
        prompt: promptOf(index),
        promptChars: null,
        promptTokens: null,
        status: 'ok',
        rawOutput: `{"answer": "model ${model} says ${index}"}`,
        parsed: `model ${model} says ${index}`,
        scores: { esm: correct, ssm: correct },
        ...NO_MODEL_CALL,
      });
    });
  });
}
store.close();
console.log(
  `built ${models} × ${samplesPerModel} results in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);

// What the end of a run pays: the suite's leaderboard computed from every result and saved.
started = performance.now();
const writer = new Store(path);
suiteLeaderboard(writer, medodysseySuite, { save: true });
writer.close();
const computeAndSave = (performance.now() - started) / 1000;

started = performance.now();
const raw = new Database(path, { readonly: true });
let rows = 0;
for (const _ of raw.prepare('SELECT params_json, scores_json FROM results').iterate()) rows++;
raw.close();
const floor = (performance.now() - started) / 1000;

const viewerStore = new Store(path, { readonly: true });
const viewer = await startViewServer({ store: viewerStore, suites: SUITES, host: '127.0.0.1', port: 0 });
async function timed(route) {
  const begin = performance.now();
  const response = await fetch(new URL(`api/${route}`, viewer.url));
  const body = await response.text();
  return { seconds: (performance.now() - begin) / 1000, bytes: body.length, status: response.status };
}
// The first request right after start: it waits for the leaderboards the server computes at start.
const leaderboard = await timed('leaderboard?suite=medodyssey');
const leaderboardWarm = await timed('leaderboard?suite=medodyssey');
const runId = (model) => `run${String(model % models).padStart(13, '0')}`;
const runPage = await timed(`run?id=${runId(5)}`);
const list = await timed(`samples?run=${runId(7)}&group=niah-zh&level=64000&offset=0&limit=100`);
const sample = await timed(`sample?run=${runId(11)}&id=${encodeURIComponent(samples[6].id)}`);
await viewer.close();
viewerStore.close();
rmSync(folder, { recursive: true, force: true });
const show = (name, result) =>
  console.log(
    `${name.padEnd(28)} ${result.seconds.toFixed(3)} s  (${(result.bytes / 1024).toFixed(0)} KiB, HTTP ${result.status})`,
  );
console.log(`bare SQLite pass over ${rows} rows: ${floor.toFixed(3)} s (reference)`);
console.log(
  `leaderboard computed from every row and saved (end of a run): ${computeAndSave.toFixed(3)} s (reference)`,
);
show('leaderboard, cold', leaderboard);
console.log(
  `  = ${(leaderboard.seconds / floor).toFixed(3)}x the bare pass, ${(leaderboard.seconds / computeAndSave).toFixed(3)}x computing it (target: under 0.2 s)`,
);
show('leaderboard, warm', leaderboardWarm);
show('run page (heatmaps, CIs)', runPage);
show('sample list (one page)', list);
show('sample page (with prompt)', sample);
console.log(`sample page target: under 1 s — ${sample.seconds < 1 ? 'met' : 'NOT met'}`);
