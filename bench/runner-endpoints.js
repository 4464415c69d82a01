// Throughput with 1, 2 and 4 endpoints of one model: each endpoint is a local replica that serves
// at most `capacity` requests at once and answers each `delayMs` after admitting it, so a replica
// gives at most capacity / delay requests/s and only more replicas give more. The runner spreads
// each endpoint's concurrency (set above its capacity) over all of them, stores every answer in
// SQLite, and should scale with the replicas. Prints per count the achieved rate, its ratio to
// the replicas' ideal, and the speed-up over one endpoint; `repeats` runs of each.
// Usage: npm run build && node bench/runner-endpoints.js [requests] [capacity] [delayMs] [repeats]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { medodysseyTasks, OpenAICompatibleChatModel, runSamples, Store } from '../dist/index.js';

const requests = Number(process.argv[2] ?? 1200);
const capacity = Number(process.argv[3] ?? 8);
const delayMs = Number(process.argv[4] ?? 50);
const repeats = Number(process.argv[5] ?? 3);

async function startReplica() {
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'slow-server.js'), String(delayMs), String(capacity)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return { child, url };
}

async function rate(replicas, repeat) {
  const folder = mkdtempSync(join(tmpdir(), 'medbench-endpoints-'));
  const store = new Store(join(folder, 'medbench.sqlite'));
  const samples = Array.from({ length: requests }, (_, index) => ({
    id: `e${replicas.length}-${repeat}-${index}`,
    suite: 'medodyssey',
    task: 'niah',
    params: { language: 'en', level: 4000, depth: 0 },
    prompt: `Endpoints ${replicas.length}, repeat ${repeat}, prompt ${index}: which letter?`,
    promptChars: 50,
    promptTokens: { o200k_base: 14 },
    gold: { answers: ['x'] },
  }));
  const model = {
    label: 'bench',
    provider: 'openai-compatible',
    modelId: 'bench',
    endpoints: replicas.map(({ url }) => ({
      model: new OpenAICompatibleChatModel({ baseURL: `${url}/v1`, modelId: 'bench' }),
      // More than a replica serves at once: the replicas, not the runner, set the pace.
      concurrency: capacity * 2,
    })),
    contextWindow: undefined,
    tokenizer: undefined,
    prices: undefined,
    instruct: true,
    systemRole: true,
    parameters: { temperature: 0, maxOutputTokens: 16 },
  };
  const run = {
    id: `bench-${replicas.length}-${repeat}`,
    suite: 'medodyssey',
    label: 'bench',
    datasetId: 'bench',
    datasetPath: null,
    model: {},
    parameters: {},
    source: 'medbench',
    scoringMode: 'standard',
    createdAt: new Date().toISOString(),
  };
  try {
    const started = performance.now();
    const summary = await runSamples({
      store,
      run,
      samples,
      tasks: medodysseyTasks,
      model,
      retry: { maxRetries: 0, baseDelayMs: 10, maxDelayMs: 10, unreachableMs: 1000, maxRetryAfterMs: 1000 },
      timeoutMs: 10_000,
    });
    if (store.countResults(run.id) !== requests || summary.errors > 0)
      throw new Error('not every answer was stored');
    return summary.done / ((performance.now() - started) / 1000);
  } finally {
    store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

const replicas = [];
try {
  for (let index = 0; index < 4; index++) replicas.push(await startReplica());
  console.log(
    `${requests} requests per run; each replica serves ${capacity} at once, ${delayMs} ms each: ideal ${((capacity / delayMs) * 1000).toFixed(0)} requests/s per replica`,
  );
  let single;
  for (const count of [1, 2, 4]) {
    const rates = [];
    for (let repeat = 0; repeat < repeats; repeat++) rates.push(await rate(replicas.slice(0, count), repeat));
    rates.sort((left, right) => left - right);
    const median = rates[Math.floor(rates.length / 2)];
    single ??= median;
    const ideal = (count * capacity * 1000) / delayMs;
    console.log(
      `${count} endpoint(s): ${rates.map((value) => value.toFixed(0)).join(' / ')} requests/s (min/…/max), median ${(median / ideal).toFixed(3)} of ideal ${ideal.toFixed(0)}, speed-up over one ${(median / single).toFixed(2)}×`,
    );
  }
} finally {
  for (const { child } of replicas) child.kill();
}
