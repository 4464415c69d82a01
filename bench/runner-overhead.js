// Runner overhead: requests to a local server that answers after a fixed delay, at a fixed
// concurrency, with the SQLite store (a file) committing every response and result. The ideal
// rate is C / L (32 / 0.020 s = 1,600 requests/s). In each of three rounds, side by side, it
// measures the bare HTTP client (no runner, no store: the ceiling this machine allows) and then
// the runner into a fresh store, and prints each round and the min / median / max of the ratios.
// 20,000 requests a round by default: a run's steady state (a real run has thousands of samples;
// the first two or three thousand requests mostly measure the JIT warming up).
// With "claims" as the fifth argument the runner also takes a request claim per request, as the CLI
// does (claims.sqlite beside the store: two medbench processes never pay for one answer twice).
// Each round also prints how busy the run's thread was and the process's CPU time per request.
// Usage: npm run build && node bench/runner-overhead.js [requests] [concurrency] [delayMs] [rounds] [claims]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { medodysseyTasks, OpenAICompatibleChatModel, runSamples, Store } from '../dist/index.js';
import { RequestClaims } from '../dist/store/request-claims.js';
import { benchModel, benchRun, benchSamples, startSlowServer } from './bench-run.js';

const requests = Number(process.argv[2] ?? 20000);
const concurrency = Number(process.argv[3] ?? 32);
const delayMs = Number(process.argv[4] ?? 20);
const rounds = Number(process.argv[5] ?? 3);
const withClaims = process.argv[6] === 'claims';
const ideal = concurrency / (delayMs / 1000);

const { child: server, url } = await startSlowServer(delayMs);
/** The delays the server achieved since the last call: mean and max, ms. */
async function serverDelays() {
  const stats = await (await fetch(`${url}/stats`)).json();
  return `server delay mean ${stats.mean.toFixed(2)} ms, max ${stats.max.toFixed(1)} ms, client turnaround ${stats.gapMean.toFixed(2)} ms`;
}

/**
 * This thread's own CPU time (ms) and how often the kernel took the CPU from it while it could
 * run (involuntary context switches), from /proc; undefined where there is no /proc.
 */
function threadClock() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const status = readFileSync(`/proc/self/task/${process.pid}/status`, 'utf8');
    const preempted = Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1]);
    return { cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100, preempted };
  } catch {
    return undefined;
  }
}

/** The run thread's CPU a request and how often it was preempted, since `from`. */
function threadLoad(from) {
  const to = threadClock();
  if (!from || !to) return '';
  return `, run thread CPU ${(((to.cpuMs - from.cpuMs) * 1000) / requests).toFixed(0)} µs and preempted ${((to.preempted - from.preempted) / requests).toFixed(2)} times a request`;
}

async function bareClientRate(round) {
  const client = new OpenAICompatibleChatModel({ baseURL: `${url}/v1`, modelId: 'bench' });
  let next = 0;
  const started = performance.now();
  const loop = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const clock = threadClock();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        await client.generate({
          messages: [{ role: 'user', content: `ping ${round} ${next}` }],
          parameters: { temperature: 0, maxOutputTokens: 16 },
        });
      }
    }),
  );
  const busy = performance.eventLoopUtilization(loop).utilization;
  const used = process.cpuUsage(cpu);
  bareLoad = `thread busy ${(busy * 100).toFixed(0)} %, CPU ${((used.user + used.system) / requests).toFixed(0)} µs a request${threadLoad(clock)}`;
  return requests / ((performance.now() - started) / 1000);
}

/** Where the runner's CPU went in its last round: the run's thread busy, and the process's CPU per request. */
let runnerLoad = '';
let bareLoad = '';

async function runnerRate(round) {
  const folder = mkdtempSync(join(tmpdir(), 'medbench-bench-'));
  const store = new Store(join(folder, 'medbench.sqlite'));
  const claims = withClaims ? RequestClaims.beside(store.path) : undefined;
  try {
    const started = performance.now();
    const loop = performance.eventLoopUtilization();
    const cpu = process.cpuUsage();
    const clock = threadClock();
    const summary = await runSamples({
      store,
      run: benchRun(`bench-${round}`),
      samples: benchSamples(requests, `bench-${round}`),
      tasks: medodysseyTasks,
      model: benchModel([url], concurrency),
      retry: { maxRetries: 0, baseDelayMs: 10, maxDelayMs: 10 },
      timeoutMs: 10_000,
      ...(claims ? { claims } : {}),
    });
    const seconds = (performance.now() - started) / 1000;
    const busy = performance.eventLoopUtilization(loop).utilization;
    const used = process.cpuUsage(cpu);
    runnerLoad = `run thread busy ${(busy * 100).toFixed(0)} %, process CPU ${((used.user + used.system) / requests).toFixed(0)} µs a request${threadLoad(clock)}`;
    const stored = store.countResults(`bench-${round}`);
    if (stored !== requests || summary.errors !== 0)
      throw new Error(`round ${round}: ${stored} results stored, ${summary.errors} errors`);
    return summary.done / seconds;
  } finally {
    claims?.close();
    store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

const spread = (values) => {
  const sorted = [...values].sort((left, right) => left - right);
  return `${sorted[0].toFixed(3)} / ${sorted[Math.floor(sorted.length / 2)].toFixed(3)} / ${sorted.at(-1).toFixed(3)}`;
};

try {
  const runner = [];
  const bare = [];
  console.log(
    `${requests} requests a round, concurrency ${concurrency}, server delay ${delayMs} ms: ideal ${ideal.toFixed(0)} requests/s${withClaims ? '; a request claim per request, as the CLI takes' : ''}`,
  );
  for (let round = 1; round <= rounds; round++) {
    bare.push((await bareClientRate(round)) / ideal);
    const bareDelays = await serverDelays();
    runner.push((await runnerRate(round)) / ideal);
    const runnerDelays = await serverDelays();
    console.log(
      `round ${round}: runner ${runner.at(-1).toFixed(3)} of ideal (${runnerDelays}; ${runnerLoad}); bare HTTP client ${bare.at(-1).toFixed(3)} (${bareDelays}; ${bareLoad}); runner / bare ${(runner.at(-1) / bare.at(-1)).toFixed(3)}`,
    );
  }
  console.log(`runner / ideal, min / median / max: ${spread(runner)} (target >= 0.9), every response stored`);
  console.log(`bare client / ideal: ${spread(bare)}`);
  console.log(`runner / bare: ${spread(runner.map((value, index) => value / bare[index]))}`);
} finally {
  server.kill();
}
