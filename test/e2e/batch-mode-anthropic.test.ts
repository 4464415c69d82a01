import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnthropicPlatform, startAnthropicPlatform } from '../support/platform/anthropic-platform.js';
import { fetchJson, postJson, text } from '../support/platform/platform-fetch.js';
import {
  billed,
  createKiller,
  type Killer,
  modelConfig,
  reportedCost,
  reportedScores,
  runArgs,
  runModel,
  storedBatch,
  storedColumn,
  variedAnswer,
} from './batch-runs.js';
import { buildSampleNiah, temporaryHome } from './cli.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah-counting.jsonl');
const environment = { ANTHROPIC_KEY_FOR_TEST: 'sk-ant-test-batch-77c1' };
const run = runModel(dataset, environment);
let platform: AnthropicPlatform;
let proxy: Killer;

beforeAll(async () => {
  await buildSampleNiah(dataset, '2000', 'niah,counting');
  platform = await startAnthropicPlatform({ answer: variedAnswer });
  proxy = await createKiller({
    target: () => platform.url,
    isCreate: (method, path) => method === 'POST' && path === '/v1/messages/batches',
    // The Models API (a synchronous run's probe), which the platform does not stand in for.
    answer: (method, path) => {
      const model = /^GET \/v1\/models\/([\w.-]+)$/.exec(`${method} ${path}`);
      return model
        ? { status: 200, body: { type: 'model', id: model[1], display_name: model[1] } }
        : undefined;
    },
  });
});
afterAll(async () => {
  await proxy.close();
  await platform.close();
  rmSync(scratch, { recursive: true, force: true });
});

const anthropicConfig = (url: string) =>
  modelConfig(scratch, {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    prices: { inputPerMillion: 3, outputPerMillion: 15 },
    endpoints: [{ baseURL: url, apiKeyEnv: 'ANTHROPIC_KEY_FOR_TEST' }],
  });

describe('run --batch on Anthropic (Message Batches)', () => {
  it('submits one batch and reports the scores of a synchronous run, at what the platform billed', async () => {
    const synchronous = temporaryHome();
    const direct = await run(synchronous, anthropicConfig(proxy.url));
    expect(direct.code, direct.stderr).toBe(0);
    expect(await reportedCost(synchronous)).toBeCloseTo(billed(platform.ledger, 'sync'), 10);

    const home = temporaryHome();
    const batched = await run(home, anthropicConfig(proxy.url), ['--batch', '--batch-poll-ms', '20']);
    expect(batched.code, batched.stderr).toBe(0);
    expect(platform.received.batchesCreated).toBe(1);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
    expect(await reportedScores(home)).toEqual(await reportedScores(synchronous));
    expect(await reportedCost(home)).toBeCloseTo(billed(platform.ledger, 'batch'), 10);
  });

  /** A run killed once its create reached the platform, before medbench recorded the batch's id. */
  async function killedAfterCreate(home: string, config: string) {
    platform.received.batchLines.clear();
    platform.received.batchesCreated = 0;
    await proxy.killAfterCreate(
      runArgs(dataset, home, config, ['--batch', '--batch-poll-ms', '20']),
      environment,
    );
    expect(storedBatch(home)).toEqual({ state: 'submitting', settled: false });
    expect(platform.received.batchesCreated).toBe(1);
  }

  it('killed after the create reached Anthropic, with another batch of its size made since: the re-run refuses to guess', async () => {
    const home = temporaryHome();
    const config = anthropicConfig(proxy.url);
    await killedAfterCreate(home, config);
    const rerun = await run(home, config, ['--batch', '--batch-poll-ms', '20']);
    expect(rerun.code).toBe(2);
    expect(rerun.stderr).toMatch(
      /Anthropic has 2 batches of its size made since \(msgbatch_\w+, msgbatch_\w+\)/,
    );
    expect(rerun.stderr).toContain(
      'Cancel in the Anthropic console the batches still running that are not this run',
    );
    expect(platform.received.batchesCreated).toBe(1);
    expect(storedBatch(home)).toEqual({ state: 'submitting', settled: false });
  });

  it('killed after the create reached Anthropic: the re-run finds that batch by time and size, and creates none', async () => {
    await platform.close();
    platform = await startAnthropicPlatform({ answer: variedAnswer });
    const home = temporaryHome();
    const config = anthropicConfig(proxy.url);
    await killedAfterCreate(home, config);
    const rerun = await run(home, config, ['--batch', '--batch-poll-ms', '20']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('1 batch from before resumed');
    expect(platform.received.batchesCreated).toBe(1);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
    expect(storedBatch(home)).toEqual({ state: 'done', settled: true });
  });

  it('killed before its create reached Anthropic, another batch of its size made since: the re-run takes it, refuses it at its results, and creates its own', async () => {
    await platform.close();
    platform = await startAnthropicPlatform({ answer: variedAnswer });
    const home = temporaryHome();
    const config = anthropicConfig(proxy.url);
    const extra = ['--batch', '--batch-poll-ms', '20'];
    await proxy.killAfterCreate(runArgs(dataset, home, config, extra), environment, 'hold-before');
    expect(storedBatch(home)).toEqual({ state: 'submitting', settled: false });
    expect(platform.received.batchesCreated).toBe(0);
    // Someone else's batch of the same size, other requests: the search cannot tell it from this run's.
    const size = storedColumn(home, 'SELECT size FROM provider_batches')[0] as number;
    const other = await postJson(
      `${platform.url}/v1/messages/batches`,
      { requests: Array.from({ length: size }, (_, index) => otherRequest(index)) },
      KEY,
    );
    const rerun = await run(home, config, extra);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain("not that submission's batch; passed over");
    expect(storedBatch(home)).toEqual({ state: 'done', settled: true });
    expect(storedColumn(home, 'SELECT refused FROM provider_batches')).toEqual([text(other.body, 'id')]);
    expect(platform.received.batchesCreated).toBe(2);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
  });

  it('a batch deleted at Anthropic: the submission fails (404 not found), and the next run sends its requests again', async () => {
    const home = temporaryHome();
    const extra = ['--batch', '--batch-poll-ms', '20'];
    // Armed, it kills the run at its first look at the batch it created: recorded, its results unread.
    const poller = await createKiller({
      target: () => platform.url,
      isCreate: (method, path) => method === 'GET' && /^\/v1\/messages\/batches\/msgbatch_\w+$/.test(path),
      answer: (method, path) => (/^GET \/v1\/models\//.test(`${method} ${path}`) ? MODEL : undefined),
    });
    const config = anthropicConfig(poller.url);
    try {
      await poller.killAfterCreate(runArgs(dataset, home, config, extra), environment);
      expect(storedBatch(home)).toEqual({ state: 'submitted', settled: false });
      const batchId = storedColumn(home, 'SELECT batch_id FROM provider_batches')[0] as string;
      while (platform.batches.jobs.get(batchId)!.phase !== 'completed') platform.batches.advance(batchId);
      const deleted = await fetchJson(`${platform.url}/v1/messages/batches/${batchId}`, {
        method: 'DELETE',
        headers: KEY,
      });
      expect(deleted.status).toBe(200);
      const failed = await run(home, config, extra);
      expect(failed.code, failed.stderr).toBe(3);
      expect(failed.stderr).toContain(`the batch ${batchId} is gone at the provider (404`);
      expect(storedBatch(home)).toEqual({ state: 'failed', settled: true });
      const created = platform.received.batchesCreated;
      const rerun = await run(home, config, extra);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(platform.received.batchesCreated).toBe(created + 1);
      expect(storedColumn(home, 'SELECT state FROM provider_batches ORDER BY created_at')).toEqual([
        'failed',
        'done',
      ]);
    } finally {
      await poller.close();
    }
  });
});

const KEY = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' };
const MODEL = { status: 200, body: { type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude' } };

/** A request of someone else's batch. */
const otherRequest = (index: number) => ({
  custom_id: `other-${index}`,
  params: {
    model: 'claude-sonnet-4-5',
    max_tokens: 16,
    messages: [{ role: 'user', content: `Other ${index}` }],
  },
});
