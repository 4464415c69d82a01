import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { writeTinyOnnxModel } from '../support/tiny-onnx-model.js';
import { reportJson, runCli, temporaryHome } from './cli.js';
import { shardAndMerge } from './shard-and-merge.js';
import { resultIds, storeSnapshot } from './store-snapshot.js';

// `run clue` on the one run path (runSuite): a dry run, shards and the cost cap, as for `run --dataset`.
const data = mkdtempSync(join(tmpdir(), 'medbench-clue-path-'));
let server: LlmTestServer;

beforeAll(async () => {
  writeClueFixtures(data);
  // Answers vary by prompt, so equal reports mean the same answers in the same places.
  server = await startLlmTestServer({
    fallback: (request) => {
      const messages = request.body.messages as Array<{ content: string }>;
      const length = messages.map((message) => message.content).join('').length;
      if (messages.some((message) => message.content.includes('BEGIN DOCUMENTS')))
        return { kind: 'answer', text: `The correct answer is ${'ABCDE'[length % 5]}: x.` };
      return { kind: 'answer', text: length % 2 === 0 ? 'ENTAILMENT' : `Fever ${length}` };
    },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(data, { recursive: true, force: true });
});

/** A config naming the test server's model, `priced`, with prices: input free, each output token 1. */
function pricedConfig(): string {
  const path = join(data, 'priced.config.json');
  const model = {
    provider: 'openai-compatible',
    model: 'clinical',
    endpoints: [{ baseURL: `${server.url}/v1`, concurrency: 1 }],
    prices: { inputPerMillion: 0, outputPerMillion: 1_000_000 },
    tokenizer: 'o200k_base',
    contextWindow: 8000,
  };
  writeFileSync(path, JSON.stringify({ models: { priced: model } }));
  return path;
}

const clue = (home: string, model: string, ...extra: string[]) =>
  runCli(['--home', home, 'run', 'clue', '--data', data, '--model', model, ...extra]);

/**
 * The report as JSON, without the moments it was made and its runs were created, and without how
 * many requests were sent or answered from the cache: LongHealth repeats prompts, and each machine
 * sends a repeat its own cache has not seen (the samples and their tokens are compared).
 */
function report(home: string): Promise<unknown> {
  return reportJson(home, 'clue', ['generatedAt', 'createdAt', 'sent', 'cached']);
}

describe('run clue --dry-run', () => {
  it("a model: per task what is left to send and its output limits at the config's prices; sends and stores nothing", async () => {
    const home = temporaryHome();
    const config = pricedConfig();
    const before = server.requests.length;
    const dry = await clue(home, 'priced', '--config', config, '--tasks', 'mednli,meqsum', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(server.requests.length).toBe(before);
    expect(storeSnapshot(home)).toBe('absent');
    expect(dry.stdout).toContain(
      'Dry run: nothing was sent or stored. clinical; prompt sizes in o200k_base tokens',
    );
    // MedNLI: 3 scored items at paper-2024's limit of 20 output tokens; MeQSum: 2 at 200. Output tokens cost 1.
    expect(dry.stdout).toMatch(/^mednli\t3\t0\t0\t\d+\t60\t60\.0000$/m);
    expect(dry.stdout).toMatch(/^meqsum\t2\t0\t0\t\d+\t400\t400\.0000$/m);
    expect(dry.stdout).toMatch(/^all\t5\t0\t0\t\d+\t460\t460\.0000$/m);

    // Part of the run stored (shard 1/3 holds 2 of the 5): the dry run of the whole run counts them as done.
    const half = await clue(home, 'priced', '--config', config, '--tasks', 'mednli,meqsum', '--shard', '1/3');
    expect(half.code, half.stderr).toBe(0);
    const stored = resultIds(home);
    expect(stored).toHaveLength(2);
    const sent = server.requests.length;
    const again = await clue(home, 'priced', '--config', config, '--tasks', 'mednli,meqsum', '--dry-run');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^all\t5\t2\t0\t/m);
    expect(server.requests.length).toBe(sent);
    expect(resultIds(home)).toEqual(stored);
  });

  it('the baseline: the items left to compute; computes and stores nothing', async () => {
    const home = temporaryHome();
    const dry = await clue(home, 'baseline', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(storeSnapshot(home)).toBe('absent');
    expect(dry.stdout).toContain(
      'Dry run: nothing was computed or stored. The CLUE baseline: 41 of 41 items left to compute in this process; nothing is sent to a model.',
    );
    const limited = await clue(home, 'baseline', '--dry-run', '--limit', '1');
    expect(limited.stdout).toContain('The CLUE baseline: 6 of 6 items left');
    expect(limited.stdout).toContain('The run is limited to the first 1');
    expect((await clue(home, 'baseline', '--shard', '2/3')).code).toBe(0);
    const stored = resultIds(home).length;
    const again = await clue(home, 'baseline', '--dry-run');
    expect(again.stdout).toContain(
      `The CLUE baseline: ${41 - stored} of 41 items left to compute in this process (${stored} stored before)`,
    );
    expect(resultIds(home)).toHaveLength(stored);
  });
});

describe('run clue --shard i/n and merge', () => {
  it('three shards of a model run with BERTScore, merged, report exactly what one machine does', async () => {
    const encoder = writeTinyOnnxModel({ hiddenStates: true });
    const run = (home: string, ...extra: string[]) =>
      clue(
        home,
        `openai-compatible:clinical@${server.url}/v1`,
        ...['--context-window', '8000', '--tokenizer', 'o200k_base', '--bertscore-model', encoder],
        ...['--bertscore-layer', '1', '--tasks', 'mednli,meqsum,longhealth,medisumqa', ...extra],
      );
    const single = temporaryHome();
    const whole = await run(single);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stderr).toContain('BERTScore meqsum: allenai/scibert_scivocab_uncased layer 1, 2 items');
    const all = resultIds(single);
    expect(all).toHaveLength(3 + 2 + 30 + 2);

    const merged = await shardAndMerge((home, launch) => run(home, ...launch.args), all);
    const joined = await report(merged);
    expect(joined).toEqual(await report(single));
    expect(JSON.stringify(joined)).toContain('"bertscore"');
    // Resuming the merged run sends nothing.
    const before = server.requests.length;
    expect((await run(merged)).code).toBe(0);
    expect(server.requests.length).toBe(before);
  });
});

describe('run clue --max-cost', () => {
  it('stops before a request could pass the cap, and a higher cap finishes the run', async () => {
    const home = temporaryHome();
    const config = pricedConfig();
    const before = server.requests.length;
    // A MedNLI request may cost 20 (its output limit): the first goes (20 ≤ 21), the second could pass 21.
    const capped = await clue(home, 'priced', '--config', config, '--tasks', 'mednli', '--max-cost', '21');
    expect(capped.code).toBe(3);
    expect(capped.stderr).toContain('Stopped at the cost cap (--max-cost)');
    expect(server.requests.length - before).toBe(1);
    expect(resultIds(home)).toHaveLength(1);
    const rest = await clue(home, 'priced', '--config', config, '--tasks', 'mednli', '--max-cost', '100');
    expect(rest.code, rest.stderr).toBe(0);
    expect(server.requests.length - before).toBe(3);
    expect(resultIds(home)).toHaveLength(3);
  });
});

describe('run clue: run identity', () => {
  it('keeps the run ids runs had before `run clue` moved onto runSuite (a changed id orphans stored runs)', async () => {
    const home = temporaryHome();
    const runId = async (...extra: string[]) => {
      const result = await clue(home, 'baseline', ...extra);
      expect(result.code, result.stderr).toBe(0);
      return /^Run ([0-9a-f]{16}):/m.exec(result.stderr)?.[1];
    };
    // Ids of the same runs by medbench at d06a5c9 (runClueCommand), on these fixtures.
    expect(await runId('--tasks', 'meqsum,mednli', '--limit', '1', '--redact')).toBe('ecd185dde2b718a9');
    expect(
      await runId(
        '--tasks',
        'meqsum,mednli,medisumcode',
        '--protocol',
        'repo-2025',
        '--seed',
        '3',
        '--label',
        'x',
      ),
    ).toBe('0f80b4995b7ca284');
  });
});
