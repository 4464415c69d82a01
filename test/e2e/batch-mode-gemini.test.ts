import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GeminiPlatform, startGeminiPlatform } from '../support/platform/gemini-platform.js';
import * as batchRuns from './batch-runs.js';
import { buildSampleNiah, temporaryHome } from './cli.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah-counting.jsonl');
const environment = { GEMINI_KEY_FOR_TEST: 'gemini-test-batch-93e0' };
const run = batchRuns.runModel(dataset, environment);
let platform: GeminiPlatform;
let proxy: batchRuns.Killer;

beforeAll(async () => {
  await buildSampleNiah(dataset, '2000', 'niah,counting');
  platform = await startGeminiPlatform({ answer: batchRuns.variedAnswer });
  proxy = await batchRuns.geminiKiller(
    () => platform.url,
    (method, path) => method === 'POST' && path.includes(':batchGenerateContent'),
  );
});
afterAll(async () => {
  await proxy.close();
  await platform.close();
  rmSync(scratch, { recursive: true, force: true });
});

const geminiConfig = () =>
  batchRuns.modelConfig(scratch, {
    provider: 'gemini',
    model: 'gemini-2.5-flash',
    prices: { inputPerMillion: 0.3, outputPerMillion: 2.5 },
    endpoints: [{ baseURL: proxy.url, apiKeyEnv: 'GEMINI_KEY_FOR_TEST' }],
  });

describe('run --batch on Gemini (Batch Mode)', () => {
  it('submits one batch of inlined requests and reports the scores of a synchronous run', async () => {
    const synchronous = temporaryHome();
    const direct = await run(synchronous, geminiConfig());
    expect(direct.code, direct.stderr).toBe(0);

    const home = temporaryHome();
    const batched = await run(home, geminiConfig(), ['--batch', '--batch-poll-ms', '20']);
    expect(batched.code, batched.stderr).toBe(0);
    expect(platform.received.batchesCreated).toBe(1);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
    expect(await batchRuns.reportedScores(home)).toEqual(await batchRuns.reportedScores(synchronous));
    expect(await batchRuns.reportedCost(home)).toBeCloseTo(batchRuns.billed(platform.ledger, 'batch'), 10);
  });

  it('killed after the create reached Gemini: the re-run finds that batch by its display name and creates none', async () => {
    platform.received.batchLines.clear();
    platform.received.batchesCreated = 0;
    const home = temporaryHome();
    const config = geminiConfig();
    const extra = ['--batch', '--batch-poll-ms', '20', '--temperature', '0.1'];
    await proxy.killAfterCreate(batchRuns.runArgs(dataset, home, config, extra), environment);
    expect(batchRuns.storedBatch(home)).toEqual({ state: 'submitting', settled: false });
    const rerun = await run(home, config, extra);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('1 batch from before resumed');
    expect(platform.received.batchesCreated).toBe(1);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
  });
});
