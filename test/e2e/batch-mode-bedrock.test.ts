import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type InterceptingProxy,
  type Interception,
  startInterceptingProxy,
} from '../support/intercepting-proxy.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { type BedrockPlatform, startBedrockPlatform } from '../support/platform/bedrock-platform.js';
import * as batchRuns from './batch-runs.js';
import { buildSampleNiah, startCli, temporaryHome } from './cli.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah.jsonl');
// The platform's S3 keys sign every request (SigV4), for the control plane and S3 alike.
const environment = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const run = batchRuns.runModel(dataset, environment);
const ROLE = 'arn:aws:iam::123456789012:role/BedrockBatchInference';

/** The last turn's text, however it is cut into blocks: both servers answer by it alike. */
function lastTurn(messages: unknown): string {
  const last = (messages as Array<{ content: string | Array<{ text?: string }> }>).at(-1)!.content;
  return typeof last === 'string' ? last : last.map((block) => block.text ?? '').join('');
}

let runtime: LlmTestServer;
let platform: BedrockPlatform;
let control: InterceptingProxy;
let storage: InterceptingProxy;
let decide: (service: 'control' | 's3', method: string, path: string) => Interception = () => 'forward';
let onHold: () => void = () => {};

beforeAll(async () => {
  // 132 NIAH samples (three levels, eleven depths): Bedrock takes no fewer than 100 records a job.
  await buildSampleNiah(dataset, '1000,1500,2000', 'niah', ['--depths', '0,10,20,30,40,50,60,70,80,90,100']);
  // Converse (the synchronous run, and the probe's CountTokens) on the LLM test server; batch
  // inference on the Bedrock platform; both answer a prompt alike.
  runtime = await startLlmTestServer({
    provider: 'bedrock',
    fallback: (request) => ({
      kind: 'answer',
      text: batchRuns.variedAnswer(lastTurn(request.body.messages)),
    }),
  });
  platform = await startBedrockPlatform({
    answer: (_prompt, body) => batchRuns.variedAnswer(lastTurn(body.messages)),
  });
  // Proxies that keep the Host header (SigV4 covers it) and can kill the run at any request.
  control = await startInterceptingProxy(
    () => platform.url,
    (method, path) => decide('control', method, path),
    () => onHold(),
    undefined,
    { keepHost: true },
  );
  storage = await startInterceptingProxy(
    () => platform.s3.endpoint,
    (method, path) => decide('s3', method, path),
    () => onHold(),
    undefined,
    { keepHost: true },
  );
});
afterAll(async () => {
  await control.close();
  await storage.close();
  await platform.close();
  await runtime.close();
  rmSync(scratch, { recursive: true, force: true });
});

const bedrockConfig = (batch: Record<string, string> | undefined = undefined) =>
  batchRuns.modelConfig(scratch, {
    provider: 'bedrock',
    model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    prices: { inputPerMillion: 3, outputPerMillion: 15 },
    endpoints: [
      {
        region: 'us-east-1',
        baseURL: runtime.url,
        ...(batch ?? {
          batchS3Uri: `s3://${platform.bucket}/runs/`,
          batchRoleArn: ROLE,
          batchS3Endpoint: storage.url,
          batchControlURL: control.url,
        }),
      },
    ],
  });
const BATCH = ['--batch', '--batch-poll-ms', '20'];

function resetCounters() {
  platform.ledger.entries.length = 0;
  platform.received.batchLines.clear();
  platform.received.batchesCreated = 0;
  platform.batches.holdAt = undefined;
}

/**
 * The report's scores: the runs' token usage left out, which the two servers count on their own
 * renderings of a prompt (the LLM test server's Converse text, the platform's Messages turns).
 */
async function scores(home: string): Promise<unknown> {
  const report = (await batchRuns.reportedScores(home)) as { runs: Array<Record<string, unknown>> };
  return { ...report, runs: report.runs.map(({ usage: _usage, ...run }) => run) };
}

let reference: unknown;

describe('run --batch on Amazon Bedrock (batch inference through S3)', () => {
  it('submits one job of every request, and reports the scores of a synchronous run at what the platform billed', async () => {
    const synchronous = temporaryHome();
    const direct = await run(synchronous, bedrockConfig());
    expect(direct.code, direct.stderr).toBe(0);
    reference = await scores(synchronous);
    resetCounters();

    const home = temporaryHome();
    const batched = await run(home, bedrockConfig(), BATCH);
    expect(batched.code, batched.stderr).toBe(0);
    expect(platform.received.batchesCreated).toBe(1);
    expect(platform.received.batchLines.size).toBeGreaterThanOrEqual(100);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
    expect(batched.stderr).toMatch(
      /Batch arn:aws:bedrock:us-east-1:\d+:model-invocation-job\/\w+ \(medbench-[\w-]+\): Completed/,
    );
    expect(await scores(home)).toEqual(reference);
    expect(await batchRuns.reportedCost(home)).toBeCloseTo(batchRuns.billed(platform.ledger, 'batch'), 10);
    expect(batchRuns.billed(platform.ledger, 'batch')).toBeGreaterThan(0);
  });

  it('refuses fewer pending requests than Bedrock takes in a job, and an endpoint without the batch settings, before anything is sent or stored', async () => {
    resetCounters();
    const sent: string[] = [];
    decide = (service, method, path) => {
      sent.push(`${service} ${method} ${path}`);
      return 'forward';
    };
    const home = temporaryHome();
    const few = await run(home, bedrockConfig(), [...BATCH, '--limit', '40']);
    expect(few.code).toBe(2);
    expect(few.stderr).toContain('a bedrock batch holds at least 100');
    expect(few.stderr).toContain('Run without --batch');
    const dry = await run(home, bedrockConfig(), [...BATCH, '--limit', '40', '--dry-run']);
    expect([dry.code, dry.stderr]).toEqual([
      2,
      expect.stringContaining('a bedrock batch holds at least 100'),
    ]);
    const enough = await run(temporaryHome(), bedrockConfig(), [...BATCH, '--dry-run']);
    expect(enough.stdout).toMatch(/--batch: 132 requests would be submitted in new provider batches/);
    const bare = await run(home, bedrockConfig({}), BATCH);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/has no "batchS3Uri" .* and no "batchRoleArn"/);
    expect(sent).toEqual([]);
    expect(platform.received.batchesCreated).toBe(0);
    decide = () => 'forward';
    expect(batchRuns.settledRequests(home)).toBe(0);
  });
});

describe('run --batch on Bedrock beside a job from before, with fewer new requests than a job takes', () => {
  it('resumes the job, leaves the rest out (their error says why), and a run without --batch sends only those', async () => {
    resetCounters();
    const home = temporaryHome();
    const config = bedrockConfig();
    // A run of the first 120 samples, killed while its job runs.
    decide = (service, method, path) =>
      service === 'control' && GET_JOB.test(`${method} ${path}`) ? 'hold-after' : 'forward';
    let victim: ChildProcess | undefined;
    onHold = () => void victim?.kill('SIGKILL');
    const started = startCli(
      batchRuns.runArgs(dataset, home, config, [...BATCH, '--limit', '120']),
      environment,
    );
    victim = started.child;
    expect((await started.done).code).toBeNull();
    decide = () => 'forward';

    // All 132: the 120 are the open job's; 12 are too few for a job of their own.
    const whole = await run(home, config, BATCH);
    expect(whole.code, whole.stderr).toBe(3);
    expect(whole.stderr).toContain(
      '12 requests left out (fewer than the 100 a bedrock batch takes); 1 batch from before resumed (120 requests)',
    );
    expect(whole.stderr).toContain('it was left out of the batches');
    expect(platform.received.batchesCreated).toBe(1);
    expect(platform.received.batchLines.size).toBe(120);

    const converse = () => runtime.requests.filter((request) => request.path.endsWith('/converse')).length;
    const before = converse();
    const rest = await run(home, config);
    expect(rest.code, rest.stderr).toBe(0);
    expect(converse() - before).toBe(12);
  });
});

/** Where a run is killed: the request a proxy holds, and what the store holds after the kill. */
interface KillPoint {
  state: string;
  service: 'control' | 's3';
  route: RegExp;
  nth?: number;
  hold: Interception;
  stored: { state: string; settled: boolean };
  holdAt?: 'InProgress';
}

const PUT_INPUT = /^PUT \/medbench-batch\/runs\/medbench-[\w-]+\.jsonl/;
const CREATE = /^POST \/model-invocation-job$/;
const GET_JOB = /^GET \/model-invocation-job\/arn/;
const GET_OUTPUT = /^GET \/medbench-batch\/runs\/output\/\w+\/medbench-[\w-]+\.jsonl\.out/;
/** A kill at the `nth` request of `route` to `service`, held as `hold`; the store then holds `stored`. */
const killAt = (
  state: string,
  [service, route, nth]: [KillPoint['service'], RegExp, number?],
  hold: Interception,
  stored: string,
  more: Partial<KillPoint> = {},
): KillPoint => ({
  state,
  service,
  route,
  ...(nth ? { nth } : {}),
  hold,
  stored: { state: stored, settled: false },
  ...more,
});

const KILL_POINTS: KillPoint[] = [
  killAt('before the upload', ['s3', PUT_INPUT], 'hold-before', 'prepared'),
  killAt('uploaded, the file not recorded', ['s3', PUT_INPUT], 'hold-after', 'prepared'),
  killAt('submitting, the create not arrived', ['control', CREATE], 'hold-before', 'submitting'),
  killAt('created remotely, its job not recorded', ['control', CREATE], 'hold-after', 'submitting'),
  killAt('in progress', ['control', GET_JOB, 3], 'hold-after', 'submitted', { holdAt: 'InProgress' }),
  killAt('ended, no result read', ['s3', GET_OUTPUT], 'hold-before', 'ended'),
  // The output file half sent: the first page of results kept, then the kill.
  killAt('results half read', ['s3', GET_OUTPUT], 'hold-midway', 'ended', {
    stored: { state: 'ended', settled: true },
  }),
];

describe('run --batch on Bedrock killed (SIGKILL) at each step of the lifecycle, then run again', () => {
  it.each(KILL_POINTS)('$state: the re-run resumes the same job, submits nothing twice', async (point) => {
    resetCounters();
    platform.batches.holdAt = point.holdAt;
    const home = temporaryHome();
    const config = bedrockConfig();
    let seen = 0;
    let victim: ChildProcess | undefined;
    decide = (service, method, path) => {
      if (service !== point.service || !point.route.test(`${method} ${path}`)) return 'forward';
      seen += 1;
      return seen === (point.nth ?? 1) ? point.hold : 'forward';
    };
    // Half the output read: killed once the first page is in the store (the rest of the file is held).
    onHold = () => {
      if (point.hold !== 'hold-midway') return void victim?.kill('SIGKILL');
      const waiting = setInterval(() => {
        if (batchRuns.settledRequests(home) === 0) return;
        clearInterval(waiting);
        victim?.kill('SIGKILL');
      }, 20);
    };
    const started = startCli(batchRuns.runArgs(dataset, home, config, BATCH), environment);
    victim = started.child;
    const killed = await started.done;
    expect(killed.code, killed.stderr).toBeNull();
    expect(batchRuns.storedBatch(home)).toEqual(point.stored);
    decide = () => 'forward';
    platform.batches.holdAt = undefined;

    const rerun = await run(home, config, BATCH);
    expect(rerun.code, rerun.stderr).toBe(0);
    // A prepared submission never reached Bedrock: it is prepared again; any later one is resumed.
    expect(rerun.stderr).toContain(
      point.stored.state === 'prepared' ? 'in 1 new batch.' : 'in 0 new batches; 1 batch from before resumed',
    );
    expect(platform.received.batchesCreated).toBe(1);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
    expect(batchRuns.storedBatch(home)).toEqual({ state: 'done', settled: true });
    expect(await scores(home)).toEqual(reference);
    // Paid once: what the run reports is what the platform billed.
    expect(await batchRuns.reportedCost(home)).toBeCloseTo(batchRuns.billed(platform.ledger, 'batch'), 10);
  });
});
