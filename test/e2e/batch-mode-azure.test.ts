import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAIPlatform, startOpenAIPlatform } from '../support/platform/openai-platform.js';
import * as batchRuns from './batch-runs.js';
import { buildSampleNiah, temporaryHome } from './cli.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah-counting.jsonl');
const environment = { AZURE_KEY_FOR_TEST: 'azure-test-batch-41aa' };
const run = batchRuns.runModel(dataset, environment);
let platform: OpenAIPlatform;
let proxy: batchRuns.Killer;

beforeAll(async () => {
  await buildSampleNiah(dataset, '2000', 'niah,counting');
  platform = await startOpenAIPlatform({
    flavour: 'azure',
    deployments: { 'gpt-41-batch': 'gpt-4.1' },
    answer: batchRuns.variedAnswer,
  });
  proxy = await batchRuns.createKiller({
    target: () => platform.url,
    isCreate: (method, path) => method === 'POST' && path.startsWith('/openai/batches?'),
  });
});
afterAll(async () => {
  await proxy.close();
  await platform.close();
  rmSync(scratch, { recursive: true, force: true });
});

const azureConfig = () =>
  batchRuns.modelConfig(scratch, {
    provider: 'azure-openai',
    model: 'gpt-4.1',
    prices: { inputPerMillion: 2, outputPerMillion: 8 },
    endpoints: [{ baseURL: proxy.url, deployment: 'gpt-41-batch', apiKeyEnv: 'AZURE_KEY_FOR_TEST' }],
  });

describe('run --batch on Azure OpenAI (Global Batch)', () => {
  it('submits one batch on the resource, the deployment in each line, and reports the scores of a synchronous run', async () => {
    const synchronous = temporaryHome();
    const direct = await run(synchronous, azureConfig());
    expect(direct.code, direct.stderr).toBe(0);

    const home = temporaryHome();
    const batched = await run(home, azureConfig(), ['--batch', '--batch-poll-ms', '20']);
    expect(batched.code, batched.stderr).toBe(0);
    expect(platform.received.batchesCreated).toBe(1);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
    const lines = [...platform.files.values()]
      .filter((file) => file.purpose === 'batch')
      .flatMap((file) => file.content.split('\n').filter((line) => line !== ''))
      .map((line) => JSON.parse(line) as unknown);
    expect(lines.length).toBe(platform.received.batchLines.size);
    for (const line of lines)
      expect(line).toMatchObject({
        method: 'POST',
        url: '/chat/completions',
        body: { model: 'gpt-41-batch' },
      });
    expect(await batchRuns.reportedScores(home)).toEqual(await batchRuns.reportedScores(synchronous));
    expect(await batchRuns.reportedCost(home)).toBeCloseTo(batchRuns.billed(platform.ledger, 'batch'), 10);
  });

  it('killed after the create reached Azure: the re-run finds that batch by its input file and creates none', async () => {
    platform.received.batchLines.clear();
    platform.received.batchesCreated = 0;
    const home = temporaryHome();
    const config = azureConfig();
    await proxy.killAfterCreate(
      batchRuns.runArgs(dataset, home, config, ['--batch', '--batch-poll-ms', '20', '--temperature', '0.1']),
      environment,
    );
    expect(batchRuns.storedBatch(home)).toEqual({ state: 'submitting', settled: false });
    const rerun = await run(home, config, ['--batch', '--batch-poll-ms', '20', '--temperature', '0.1']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('1 batch from before resumed');
    expect(platform.received.batchesCreated).toBe(1);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
  });
});
