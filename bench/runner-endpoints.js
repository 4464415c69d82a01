// Throughput with 1, 2 and 4 endpoints of one model: each endpoint is a local replica that serves
// at most `capacity` requests at once and answers each `delayMs` after admitting it, so a replica
// gives at most capacity / delay requests/s and only more replicas give more. The runner spreads
// each endpoint's concurrency (set above its capacity) over all of them, stores every answer in
// SQLite, and should scale with the replicas. Prints per count the achieved rate, its ratio to
// the replicas' ideal, and the speed-up over one endpoint; `repeats` runs of each.
// Usage: npm run build && node bench/runner-endpoints.js [requests] [capacity] [delayMs] [repeats]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { medodysseyTasks, runSamples, Store } from '../dist/index.js';
import { benchModel, benchRun, benchSamples, startSlowServer } from './bench-run.js';

const requests = Number(process.argv[2] ?? 1200);
const capacity = Number(process.argv[3] ?? 8);
const delayMs = Number(process.argv[4] ?? 50);
const repeats = Number(process.argv[5] ?? 3);

async function rate(replicas, repeat) {
  const folder = mkdtempSync(join(tmpdir(), 'medbench-endpoints-'));
  const store = new Store(join(folder, 'medbench.sqlite'));
  const samples = benchSamples(requests, `endpoints-${replicas.length}-${repeat}`);
  // More than a replica serves at once: the replicas, not the runner, set the pace.
  const model = benchModel(
    replicas.map(({ url }) => url),
    capacity * 2,
  );
  const run = benchRun(`bench-${replicas.length}-${repeat}`);
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
  for (let index = 0; index < 4; index++) replicas.push(await startSlowServer(delayMs, capacity));
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
