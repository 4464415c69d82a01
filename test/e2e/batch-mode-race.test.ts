import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type InterceptingProxy,
  type Interception,
  startInterceptingProxy,
} from '../support/intercepting-proxy.js';
import { type OpenAIPlatform, startOpenAIPlatform } from '../support/platform/openai-platform.js';
import { modelConfig, reportedScores, runArgs, variedAnswer } from './batch-runs.js';
import { buildSampleNiah, runCli, startCli, temporaryHome } from './cli.js';
import { storeSnapshot } from './store-snapshot.js';

// Two processes on one home at the same moment: `run --batch` twice, or with a run without
// --batch. The proxy holds the platform at the step where both are inside the window (an upload,
// a first chat request) until the other process has either made the same step (paying twice)
// or said it waits.

const scratch = temporaryHome();
const dataset = join(scratch, 'niah-counting.jsonl');
const environment = { OPENAI_KEY_FOR_TEST: 'sk-test-race-7c2e' };
let platform: OpenAIPlatform;
let proxy: InterceptingProxy;
let decide: (method: string, path: string) => Interception = () => 'forward';
let reference: unknown;
/** How many requests the run makes (a synchronous run's count). */
let requests = 0;

beforeAll(async () => {
  await buildSampleNiah(dataset, '2000', 'niah,counting');
  platform = await startOpenAIPlatform({ answer: variedAnswer });
  proxy = await startInterceptingProxy(
    () => platform.url,
    (method, path) => decide(method, path),
    () => {},
  );
  const synchronous = temporaryHome();
  const direct = await runCli(runArgs(dataset, synchronous, config()), environment);
  expect(direct.code, direct.stderr).toBe(0);
  requests = platform.received.syncRequests;
  expect(requests).toBeGreaterThan(20);
  reference = await reportedScores(synchronous);
});
afterAll(async () => {
  await proxy.close();
  await platform.close();
  rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => {
  platform.ledger.entries.length = 0;
  platform.received.batchLines.clear();
  platform.received.batchesCreated = 0;
  platform.received.files = 0;
  platform.received.syncRequests = 0;
  decide = () => 'forward';
});

function config(): string {
  return modelConfig(scratch, {
    provider: 'openai',
    model: 'gpt-4.1',
    prices: { inputPerMillion: 2, outputPerMillion: 8 },
    endpoints: [{ baseURL: `${proxy.url}/v1`, apiKeyEnv: 'OPENAI_KEY_FOR_TEST' }],
  });
}

const BATCH = ['--batch', '--batch-poll-ms', '20'];
type Started = ReturnType<typeof startCli>;

/** Resolves once the process has printed something matching `pattern` on stderr. */
function printed(started: Started, pattern: RegExp): Promise<void> {
  let text = '';
  return new Promise((resolve) => {
    started.child.stderr!.on('data', (chunk) => {
      text += chunk;
      if (pattern.test(text)) resolve();
    });
  });
}

/** A gate on the requests `route` matches: each waits until `open` (the first to arrive: `arrived`). */
function gate(route: RegExp, options: { only?: 'first' } = {}) {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let count = 0;
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  decide = (method, path) => {
    if (!route.test(`${method} ${path}`)) return 'forward';
    count++;
    arrive();
    return options.only === 'first' && count > 1 ? 'forward' : { until: opened };
  };
  return { open, arrived, count: () => count };
}

/** Each custom id the platform billed, and how many times (batch answers), and the synchronous answers billed. */
function billedOnce() {
  const batch = platform.ledger.entries.filter((entry) => entry.mode === 'batch');
  const sync = platform.ledger.entries.filter((entry) => entry.mode === 'sync');
  const byId = new Map<string, number>();
  for (const entry of batch) byId.set(entry.customId!, (byId.get(entry.customId!) ?? 0) + 1);
  return { ids: byId.size, once: [...byId.values()].every((count) => count === 1), sync: sync.length };
}

const UPLOAD = /^POST \/v1\/files$/;
const WAITING = /waiting for it to end/;

describe('two processes on one home never submit (nor pay for) the same requests twice', () => {
  it('two run --batch at once: one submits, the other waits for it and takes its answers', async () => {
    const home = temporaryHome();
    const args = runArgs(dataset, home, config(), BATCH);
    // Both uploads are held until both arrive (each would be paid) or one process says it waits.
    const uploads = gate(UPLOAD);
    const both = [startCli(args, environment), startCli(args, environment)];
    void Promise.race(both.map((started) => printed(started, WAITING))).then(uploads.open);
    const timer = setInterval(() => uploads.count() >= 2 && uploads.open(), 50);
    const [first, second] = await Promise.all(both.map((started) => started.done));
    clearInterval(timer);
    expect(first!.code, first!.stderr).toBe(0);
    expect(second!.code, second!.stderr).toBe(0);
    expect(uploads.count()).toBe(1);
    expect(platform.received.batchesCreated).toBe(1);
    expect(platform.received.batchLines.size).toBe(requests);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
    expect(billedOnce()).toEqual({ ids: requests, once: true, sync: 0 });
    // The one that waited named the other.
    const waiter = WAITING.test(first!.stderr) ? 0 : 1;
    expect([first, second][waiter]!.stderr).toContain(`medbench process ${both[1 - waiter]!.child.pid} on `);
    expect(await reportedScores(home)).toEqual(reference);
  });

  it('the holder killed (SIGKILL) while the other waits: the other takes over, and the requests go once', async () => {
    const home = temporaryHome();
    const args = runArgs(dataset, home, config(), BATCH);
    // The holder's upload never reaches the platform; any later one goes on.
    const uploads = gate(UPLOAD, { only: 'first' });
    const both = [startCli(args, environment), startCli(args, environment)];
    // (Without a claim neither waits: both end, and the test fails on what they sent.)
    const waiter = await Promise.race([
      ...both.map((started, index) => printed(started, WAITING).then(() => index)),
      ...both.map((started) => started.done.then(() => -1)),
    ]);
    expect(waiter).not.toBe(-1);
    // Killed inside the window: its submission recorded, its upload on the way.
    await uploads.arrived;
    const holder = both[1 - waiter]!;
    holder.child.kill('SIGKILL');
    expect((await holder.done).code).toBeNull();
    const taken = await both[waiter]!.done;
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toContain(`medbench process ${holder.child.pid} on `);
    // The killed one's submission was only prepared: dropped, its requests chosen again.
    expect(taken.stderr).toContain('in 1 new batch.');
    expect(platform.received.batchesCreated).toBe(1);
    expect(platform.received.batchLines.size).toBe(requests);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
    expect(billedOnce()).toEqual({ ids: requests, once: true, sync: 0 });
    expect(await reportedScores(home)).toEqual(reference);
  });

  it('a run without --batch while a run --batch prepares its batch: refused, naming that process; another run --batch waits', async () => {
    const home = temporaryHome();
    const uploads = gate(UPLOAD);
    const batched = startCli(runArgs(dataset, home, config(), BATCH), environment);
    await uploads.arrived;
    const before = storeSnapshot(home);
    const plain = await runCli(runArgs(dataset, home, config()), environment);
    expect(plain.code, plain.stderr).toBe(2);
    expect(storeSnapshot(home)).toEqual(before);
    expect(plain.stderr).toContain(`medbench process ${batched.child.pid} on `);
    expect(plain.stderr).toContain('pay for them twice');
    expect(platform.received.syncRequests).toBe(0);
    // Another run --batch waits for it; Ctrl-C there stops the wait, with nothing submitted.
    const second = startCli(runArgs(dataset, home, config(), BATCH), environment);
    await printed(second, WAITING);
    second.child.kill('SIGINT');
    const stopped = await second.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(uploads.count()).toBe(1);
    uploads.open();
    const done = await batched.done;
    expect(done.code, done.stderr).toBe(0);
    expect(billedOnce()).toEqual({ ids: requests, once: true, sync: 0 });
    expect(await reportedScores(home)).toEqual(reference);
  });

  it('a run --batch while a run without --batch sends: it waits for that run, then submits nothing it answered', async () => {
    const home = temporaryHome();
    const chats = gate(/^POST \/v1\/chat\/completions$/, { only: 'first' });
    const plain = startCli(runArgs(dataset, home, config()), environment);
    await chats.arrived;
    const batched = startCli(runArgs(dataset, home, config(), BATCH), environment);
    await Promise.race([printed(batched, /running this model without --batch/), batched.done]);
    chats.open();
    const [sent, waited] = await Promise.all([plain.done, batched.done]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stderr).toContain(`medbench process ${plain.child.pid} on `);
    expect(platform.received.batchesCreated).toBe(0);
    expect(billedOnce()).toEqual({ ids: 0, once: true, sync: requests });
    expect(await reportedScores(home)).toEqual(reference);
  });
});
