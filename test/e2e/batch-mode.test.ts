import type { ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type InterceptingProxy,
  type Interception,
  startInterceptingProxy,
} from '../support/intercepting-proxy.js';
import { type OpenAIPlatform, startOpenAIPlatform } from '../support/platform/openai-platform.js';
import {
  billed,
  modelConfig,
  reportedCost,
  reportedScores,
  runArgs,
  runModel,
  storedBatch,
  variedAnswer,
} from './batch-runs.js';
import { buildSampleNiah, reportJson, runCli, startCli, temporaryHome } from './cli.js';
import { storeDigest } from './store-snapshot.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah-counting.jsonl');
let platform: OpenAIPlatform;
const environment = { OPENAI_KEY_FOR_TEST: 'sk-test-batch-5b1d' };

beforeAll(async () => {
  await buildSampleNiah(dataset, '2000', 'niah,counting');
  platform = await startOpenAIPlatform({ answer: variedAnswer });
});
afterAll(async () => {
  await platform.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A config naming OpenAI's API at `url` (the platform, or a proxy in front of it). */
const openAIConfig = (url: string) =>
  modelConfig(scratch, {
    provider: 'openai',
    model: 'gpt-4.1',
    prices: { inputPerMillion: 2, outputPerMillion: 8 },
    endpoints: [{ baseURL: `${url}/v1`, apiKeyEnv: 'OPENAI_KEY_FOR_TEST' }],
  });
const run = runModel(dataset, environment);
const scores = reportedScores;
const cost = reportedCost;
const billedHere = (mode: 'sync' | 'batch') => billed(platform.ledger, mode);

function resetCounters() {
  platform.ledger.entries.length = 0;
  platform.received.batchLines.clear();
  platform.received.batchesCreated = 0;
  platform.received.files = 0;
  platform.received.syncRequests = 0;
  platform.batches.holdAt = undefined;
}

describe('run --batch on OpenAI', () => {
  it('submits one batch, takes its answers into the cache and reports what a synchronous run does', async () => {
    const synchronous = temporaryHome();
    const direct = await run(synchronous, openAIConfig(platform.url));
    expect(direct.code, direct.stderr).toBe(0);
    const sent = platform.received.syncRequests;
    expect(sent).toBeGreaterThan(20);
    expect(await cost(synchronous)).toBeCloseTo(billedHere('sync'), 10);
    resetCounters();

    const home = temporaryHome();
    const config = openAIConfig(platform.url);
    const batched = await run(home, config, ['--batch', '--batch-poll-ms', '20']);
    expect(batched.code, batched.stderr).toBe(0);
    expect(platform.received.syncRequests).toBe(0);
    expect(platform.received.batchesCreated).toBe(1);
    expect(platform.received.batchLines.size).toBe(sent);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
    expect(batched.stderr).toMatch(
      /Batch batch_\w+ \(medbench-[\w-]+\): in_progress · \d+ done, 0 failed of \d+/,
    );
    // Its last line is the state it ended in.
    expect(batched.stderr).toMatch(
      /Batch batch_\w+ \(medbench-[\w-]+\): completed · \d+ done, 0 failed of \d+/,
    );
    // Paid by this run, at half the list price: not counted as cache hits.
    expect(batched.stderr).toContain(`Done: ${sent} new, 0 from before, 0 from cache`);
    expect(await scores(home)).toEqual(await scores(synchronous));
    // Each run's cost is what the platform billed it: the batch's at the batch price.
    expect(await cost(home)).toBeCloseTo(billedHere('batch'), 10);
    expect(billedHere('batch')).toBeGreaterThan(0);
    // The usage table counts each batch answer as sent (once), none as cached.
    const usage = (
      (await reportJson(home, 'medodyssey', [])) as { usage: Array<{ sent: number; cached: number }> }
    ).usage;
    expect(usage.reduce((sum, row) => sum + row.sent, 0)).toBe(sent);
    expect(usage.reduce((sum, row) => sum + row.cached, 0)).toBe(0);

    // Done: a re-run submits nothing and changes nothing.
    const before = storeDigest(home);
    const again = await run(home, config, ['--batch', '--batch-poll-ms', '20']);
    expect(again.code, again.stderr).toBe(0);
    expect(platform.received.batchesCreated).toBe(1);
    expect(storeDigest(home)).toBe(before);
  });
});

/** Where a run is killed: the request the proxy holds (before it reaches the platform, or after it was answered). */
interface KillPoint {
  state: string;
  /** The submission's step the store holds after the kill, and whether some results were kept. */
  stored: { state: string; settled: boolean };
  decide(method: string, path: string, seen: Map<string, number>): Interception;
  hold?: 'in_progress';
}

const first = (route: RegExp, hold: Interception, nth = 1): KillPoint['decide'] => {
  return (method, path, seen) => {
    const key = `${method} ${path}`;
    if (!route.test(key)) return 'forward';
    seen.set(route.source, (seen.get(route.source) ?? 0) + 1);
    return seen.get(route.source) === nth ? hold : 'forward';
  };
};

const killAt = (
  state: string,
  stored: KillPoint['stored']['state'],
  decide: KillPoint['decide'],
  more: Partial<KillPoint> = {},
): KillPoint => ({ state, stored: { state: stored, settled: false }, decide, ...more });

const FILES = /^POST \/v1\/files$/;
const CREATE = /^POST \/v1\/batches$/;
const CONTENT = /^GET \/v1\/files\/[\w-]+\/content$/;
const KILL_POINTS: KillPoint[] = [
  killAt('before the upload', 'prepared', first(FILES, 'hold-before')),
  killAt('uploaded, the file id not recorded', 'prepared', first(FILES, 'hold-after')),
  killAt('submitting, the create not arrived', 'submitting', first(CREATE, 'hold-before')),
  killAt('created remotely, its id not recorded', 'submitting', first(CREATE, 'hold-after')),
  killAt('in progress', 'submitted', first(/^GET \/v1\/batches\/batch_\w+$/, 'hold-after', 2), {
    hold: 'in_progress',
  }),
  killAt('finished, no result read', 'ended', first(CONTENT, 'hold-before')),
  // The output file is read and kept; the run dies asking for the error file.
  killAt('results half read', 'ended', first(CONTENT, 'hold-before', 2), {
    stored: { state: 'ended', settled: true },
  }),
];

describe('run --batch killed (SIGKILL) at each step of the lifecycle, then run again', () => {
  let failing: OpenAIPlatform;
  let proxy: InterceptingProxy;
  let decide: (method: string, path: string) => Interception = () => 'forward';
  let victim: ChildProcess | undefined;
  let reference: unknown;
  // Some prompts fail (an error file beside the output file): the results come in two pages.
  const failingAnswer = (prompt: string) =>
    prompt.length % 5 === 0 ? { status: 400 } : variedAnswer(prompt);

  beforeAll(async () => {
    failing = await startOpenAIPlatform({ answer: failingAnswer });
    proxy = await startInterceptingProxy(
      failing.url,
      (method, path) => decide(method, path),
      () => victim?.kill('SIGKILL'),
    );
    const synchronous = temporaryHome();
    const direct = await run(synchronous, openAIConfig(proxy.url));
    expect(direct.code, direct.stderr).toBe(3);
    reference = await scores(synchronous);
  });
  afterAll(async () => {
    await proxy.close();
    await failing.close();
  });

  it.each(KILL_POINTS)('$state: the re-run resumes the same batch, submits nothing twice', async (point) => {
    failing.received.batchLines.clear();
    failing.received.batchesCreated = 0;
    failing.batches.holdAt = point.hold;
    const home = temporaryHome();
    const config = openAIConfig(proxy.url);
    const seen = new Map<string, number>();
    decide = (method, path) => point.decide(method, path, seen);
    const started = startCli(
      runArgs(dataset, home, config, ['--batch', '--batch-poll-ms', '20']),
      environment,
    );
    victim = started.child;
    const killed = await started.done;
    expect(killed.code, killed.stderr).toBeNull();
    expect(storedBatch(home)).toEqual(point.stored);
    decide = () => 'forward';
    failing.batches.holdAt = undefined;

    const rerun = await run(home, config, ['--batch', '--batch-poll-ms', '20']);
    // A prepared batch never reached the platform: it is prepared again; any later one is resumed.
    expect(rerun.stderr).toContain(
      point.stored.state === 'prepared' ? 'in 1 new batch.' : 'in 0 new batches; 1 batch from before resumed',
    );
    // Some samples failed in the batch, as they fail when sent one by one.
    expect(rerun.code, rerun.stderr).toBe(3);
    expect(rerun.stderr).toContain('Not answered in its provider batch');
    expect(failing.received.batchesCreated).toBe(1);
    expect(failing.received.batchLines.size).toBeGreaterThan(20);
    expect([...failing.received.batchLines.values()].every((count) => count === 1)).toBe(true);
    expect(await scores(home)).toEqual(reference);
  });
});

describe('run --batch: what it refuses, what a dry run tells, what Ctrl-C leaves', () => {
  it('refuses a provider without a batch API before anything is sent or stored', async () => {
    const home = temporaryHome();
    const refused = await runCli([
      ...['--home', home, 'run', '--dataset', dataset, '--batch'],
      ...['--model', `openai-compatible:m@${platform.url}/v1`, '--context-window', '128000'],
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('has no batch API medbench can use');
    expect(existsSync(join(home, 'medbench.sqlite'))).toBe(false);
  });

  it('--dry-run says how many requests would go into batches, and sends nothing', async () => {
    resetCounters();
    const home = temporaryHome();
    const dry = await run(home, openAIConfig(platform.url), ['--batch', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/--batch: \d+ requests would be submitted in new provider batches/);
    expect(platform.received.files + platform.received.batchesCreated).toBe(0);
  });

  it('Ctrl-C while the batch runs stops waiting, says the batch is left running, and the re-run picks it up', async () => {
    resetCounters();
    platform.batches.holdAt = 'in_progress';
    const home = temporaryHome();
    const config = openAIConfig(platform.url);
    const started = startCli(
      runArgs(dataset, home, config, ['--batch', '--batch-poll-ms', '20']),
      environment,
    );
    let seen = '';
    started.child.stderr!.on('data', (chunk) => {
      seen += chunk;
      if (seen.includes(': in_progress ·')) started.child.kill('SIGINT');
    });
    const stopped = await started.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/1 batch is left at the provider \(batch_\w+\)\. Re-run the same command/);
    // The same run without --batch would send the open batch's requests again: refused, nothing sent.
    const syncRequests = platform.received.syncRequests;
    const plain = await run(home, config, []);
    expect(plain.code, plain.stderr).toBe(2);
    expect(plain.stderr).toMatch(
      /1 provider batch still open \(batch_\w+\): without --batch its requests would be sent again/,
    );
    expect(platform.received.syncRequests).toBe(syncRequests);
    platform.batches.holdAt = undefined;
    const rerun = await run(home, config, ['--batch', '--batch-poll-ms', '20']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('in 0 new batches; 1 batch from before resumed');
    expect(platform.received.batchesCreated).toBe(1);
  });
});

/** The custom ids the first batch on `on` did not answer. */
const unansweredIn = (on: OpenAIPlatform) =>
  [...[...on.batches.jobs.values()][0]!.results.values()]
    .filter((result) => result.status !== 200)
    .map((result) => result.customId);

/** The next run submits exactly `unanswered`, in one new (second) batch, and exits with `code`. */
async function expectResubmitted(
  on: OpenAIPlatform,
  run: { home: string; config: string; code: number },
  unanswered: string[],
) {
  const second = await runModel(dataset, environment)(run.home, run.config, [
    '--batch',
    '--batch-poll-ms',
    '20',
  ]);
  expect(second.code, second.stderr).toBe(run.code);
  expect(on.received.batchesCreated).toBe(2);
  const resent = [...on.batches.jobs.values()][1]!.lines.map((line) => line.customId).sort();
  expect(resent).toEqual([...unanswered].sort());
}

describe('run --batch: requests a batch failed', () => {
  it('are the samples’ errors, and the next run submits only those, in one new batch', async () => {
    const failing = await startOpenAIPlatform({
      answer: (prompt) => (prompt.length % 5 === 0 ? { status: 400 } : variedAnswer(prompt)),
    });
    try {
      const home = temporaryHome();
      const config = openAIConfig(failing.url);
      const first = await run(home, config, ['--batch', '--batch-poll-ms', '20']);
      expect(first.code, first.stderr).toBe(3);
      const errored = unansweredIn(failing);
      expect(errored.length).toBeGreaterThan(0);
      expect(first.stderr).toContain(`${errored.length} samples got no answer`);
      // They fail again (the platform refuses those prompts), as they would sent one by one.
      await expectResubmitted(failing, { home, config, code: 3 }, errored);
    } finally {
      await failing.close();
    }
  });
});

describe('run --batch: a batch that expires', () => {
  it('keeps what it answered; the rest are the samples’ errors, and the next run submits only those', async () => {
    const expiring = await startOpenAIPlatform({ answer: variedAnswer });
    try {
      expiring.batches.holdAt = 'in_progress';
      const home = temporaryHome();
      const config = openAIConfig(expiring.url);
      const started = startCli(
        runArgs(dataset, home, config, ['--batch', '--batch-poll-ms', '20']),
        environment,
      );
      let expired = false;
      started.child.stderr!.on('data', (chunk: Buffer) => {
        if (expired || !chunk.toString().includes(': in_progress ·')) return;
        expired = true;
        // Five answered within the window, then the window ran out.
        const job = [...expiring.batches.jobs.values()][0]!;
        expiring.batches.process(job.id, 5);
        expiring.batches.expire(job.id);
      });
      const first = await started.done;
      expect(first.code, first.stderr).toBe(3);
      expect(first.stderr).toContain('Not answered in its provider batch');
      const unanswered = unansweredIn(expiring);
      expect(unanswered.length).toBe([...expiring.batches.jobs.values()][0]!.lines.length - 5);
      expiring.batches.holdAt = undefined;
      await expectResubmitted(expiring, { home, config, code: 0 }, unanswered);
    } finally {
      await expiring.close();
    }
  });
});
