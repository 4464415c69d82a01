// Runner overhead: 3,000 requests to a local server that answers after 20 ms, at
// concurrency 32, with the SQLite store writing every response and result. The ideal rate
// is 32 / 0.020 s = 1,600 requests/s; the script prints the achieved rate and the ratio.
// For reference it also measures, against the same server in the same run, the bare HTTP
// client with no runner and no store: the ceiling this machine allows.
// Usage: npm run build && node bench/runner-overhead.js [requests] [concurrency] [delayMs]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { medodysseyTasks, OpenAICompatibleChatModel, runSamples, Store } from '../dist/index.js';
import { benchModel, benchRun, benchSamples, startSlowServer } from './bench-run.js';

const requests = Number(process.argv[2] ?? 3000);
const concurrency = Number(process.argv[3] ?? 32);
const delayMs = Number(process.argv[4] ?? 20);

const { child: server, url } = await startSlowServer(delayMs);
const folder = mkdtempSync(join(tmpdir(), 'medbench-bench-'));
const store = new Store(join(folder, 'medbench.sqlite'));
const samples = benchSamples(requests, 'bench');
const model = benchModel([url], concurrency);
const run = benchRun('bench');
/** The delays the server achieved since the last call: mean and max, ms. */
async function serverDelays() {
  const stats = await (await fetch(`${url}/stats`)).json();
  return `server delay mean ${stats.mean.toFixed(2)} ms, max ${stats.max.toFixed(1)} ms`;
}

async function bareClientRate() {
  const client = new OpenAICompatibleChatModel({ baseURL: `${url}/v1`, modelId: 'bench' });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        await client.generate({
          messages: [{ role: 'user', content: `ping ${next}` }],
          parameters: { temperature: 0, maxOutputTokens: 16 },
        });
      }
    }),
  );
  return requests / ((performance.now() - started) / 1000);
}

try {
  const bare = await bareClientRate();
  const bareDelays = await serverDelays();
  const started = performance.now();
  const summary = await runSamples({
    store,
    run,
    samples,
    tasks: medodysseyTasks,
    model,
    retry: { maxRetries: 0, baseDelayMs: 10, maxDelayMs: 10 },
    timeoutMs: 10_000,
  });
  const seconds = (performance.now() - started) / 1000;
  const runnerDelays = await serverDelays();
  const stored = store.countResults('bench');
  const rate = summary.done / seconds;
  const ideal = concurrency / (delayMs / 1000);
  console.log(
    `requests ${summary.done} (stored ${stored}, errors ${summary.errors}) in ${seconds.toFixed(2)} s`,
  );
  console.log(
    `achieved ${rate.toFixed(0)} requests/s; ideal ${ideal.toFixed(0)} requests/s (${concurrency} × 1/${delayMs} ms)`,
  );
  console.log(`ratio achieved / ideal: ${(rate / ideal).toFixed(3)} (target >= 0.9); ${runnerDelays}`);
  console.log(
    `reference, bare HTTP client on the same server: ${bare.toFixed(0)} requests/s = ${(bare / ideal).toFixed(3)} of ideal; runner / bare = ${(rate / bare).toFixed(3)}; ${bareDelays}`,
  );
} finally {
  store.close();
  server.kill();
  rmSync(folder, { recursive: true, force: true });
}
