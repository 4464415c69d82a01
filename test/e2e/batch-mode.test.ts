import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAIPlatform, startOpenAIPlatform } from '../support/platform/openai-platform.js';
import { buildSampleNiah, reportJson, runCli, temporaryHome } from './cli.js';
import { storeDigest } from './store-snapshot.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah-counting.jsonl');
let platform: OpenAIPlatform;
const environment = { OPENAI_KEY_FOR_TEST: 'sk-test-batch-5b1d' };

/** Answers that vary by prompt: equal reports mean the same answers in the same places. */
const answer = (prompt: string) =>
  JSON.stringify({ answer: prompt.length % 3 === 0 ? 'Odile Varga' : `x${prompt.length % 7}` });

beforeAll(async () => {
  await buildSampleNiah(dataset, '2000', 'niah,counting');
  platform = await startOpenAIPlatform({ answer });
});
afterAll(async () => {
  await platform.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A config naming OpenAI's API at `url` (the platform, or a proxy in front of it). */
export function openAIConfig(url: string): string {
  const path = join(scratch, `config-${Math.random().toString(36).slice(2)}.json`);
  const entry = {
    provider: 'openai',
    model: 'gpt-4.1',
    contextWindow: 128000,
    prices: { inputPerMillion: 2, outputPerMillion: 8 },
    endpoints: [{ baseURL: `${url}/v1`, apiKeyEnv: 'OPENAI_KEY_FOR_TEST' }],
  };
  writeFileSync(path, JSON.stringify({ models: { gpt: entry } }));
  return path;
}

const run = (home: string, config: string, extra: readonly string[] = []) =>
  runCli(
    ['--home', home, 'run', '--dataset', dataset, '--model', 'gpt', '--config', config, ...extra],
    environment,
  );

/** The report's scores, without the moments it was made, where the answers came from and their cost. */
async function scores(home: string): Promise<unknown> {
  const printed = (await reportJson(home, 'medodyssey', ['generatedAt', 'createdAt', 'cost'])) as Record<
    string,
    unknown
  >;
  const { usage: _usage, ...rest } = printed;
  return rest;
}

/** What the report says the run cost. */
async function cost(home: string): Promise<number> {
  const printed = (await reportJson(home, 'medodyssey', [])) as { runs: Array<{ usage: { cost: number } }> };
  return printed.runs.reduce((sum, run) => sum + run.usage.cost, 0);
}

function resetCounters() {
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
    // Paid by this run, at half the list price: not counted as cache hits.
    expect(batched.stderr).toContain(`Done: ${sent} new, 0 from before, 0 from cache`);
    expect(await scores(home)).toEqual(await scores(synchronous));
    expect(await cost(home)).toBeCloseTo((await cost(synchronous)) / 2, 10);

    // Done: a re-run submits nothing and changes nothing.
    const before = storeDigest(home);
    const again = await run(home, config, ['--batch', '--batch-poll-ms', '20']);
    expect(again.code, again.stderr).toBe(0);
    expect(platform.received.batchesCreated).toBe(1);
    expect(storeDigest(home)).toBe(before);
  });
});
