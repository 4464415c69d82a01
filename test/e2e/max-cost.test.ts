import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LlmTestServer } from '../support/llm-test-server.js';
import { runCli, temporaryHome } from './cli.js';
import { niahWithTestServer } from './niah-server.js';
import { resultIds } from './store-snapshot.js';

// Every answer reports 4 output tokens ('{"answer": "x"}' is 15 characters; the server counts 1 per 4).
const { scratch, dataset, server: testServer } = niahWithTestServer();
let server: LlmTestServer;
beforeEach(() => {
  server = testServer();
});

/** A config with one model, `name`, on the test server. */
function configWith(name: string, model: Record<string, unknown>): string {
  const path = join(scratch, `${name}.config.json`);
  const entry = { provider: 'openai-compatible', model: 'm', ...model };
  writeFileSync(path, JSON.stringify({ models: { [name]: entry } }));
  return path;
}

describe('--max-cost', () => {
  it('stops before a request could pass the cap, keeps what it paid for, and a higher cap finishes the run', async () => {
    const home = temporaryHome();
    // Output tokens cost 1 each, input nothing: a request may cost at most its output limit (100).
    const config = configWith('priced', {
      endpoints: [{ baseURL: `${server.url}/v1`, concurrency: 1 }],
      prices: { inputPerMillion: 0, outputPerMillion: 1_000_000 },
    });
    const run = (cap: string) =>
      runCli([
        '--home',
        home,
        'run',
        '--dataset',
        dataset,
        '--model',
        'priced',
        '--config',
        config,
        '--context-window',
        '128000',
        '--max-output-tokens',
        '100',
        '--max-cost',
        cap,
      ]);
    // Spent 4 per answer: the k-th request goes only while 4k + 100 ≤ 120, so 6 are sent, the 7th is not.
    const capped = await run('120');
    expect(capped.code).toBe(3);
    expect(capped.stderr).toContain('Stopped at the cost cap (--max-cost)');
    expect(capped.stderr).toContain('cost 24.0000');
    expect(server.requests).toHaveLength(6);
    expect(resultIds(home)).toHaveLength(6);
    // A higher cap goes on from there; nothing answered is asked again.
    const rest = await run('1000');
    expect(rest.code).toBe(0);
    expect(server.requests).toHaveLength(20);
    expect(resultIds(home)).toHaveLength(20);
    expect(new Set(server.requests.map((request) => JSON.stringify(request.body.messages))).size).toBe(20);
  });

  it('refuses a cap on a model without prices, before anything is sent', async () => {
    const home = temporaryHome();
    const before = server.requests.length;
    const result = await runCli([
      '--home',
      home,
      'run',
      '--dataset',
      dataset,
      '--model',
      `openai-compatible:m@${server.url}/v1`,
      '--context-window',
      '128000',
      '--max-cost',
      '5',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-cost needs the prices of m');
    expect(server.requests.length).toBe(before);
  });

  it('--dry-run prints what is left to send and the most it may cost, sends and stores nothing', async () => {
    const home = temporaryHome();
    const config = configWith('dry', {
      endpoints: [{ baseURL: `${server.url}/v1` }],
      prices: { inputPerMillion: 2, outputPerMillion: 8 },
      tokenizer: 'o200k_base',
      contextWindow: 128000,
    });
    const before = server.requests.length;
    const result = await runCli([
      '--home',
      home,
      'run',
      '--dataset',
      dataset,
      '--model',
      'dry',
      '--config',
      config,
      '--dry-run',
    ]);
    expect(result.code).toBe(0);
    expect(server.requests.length).toBe(before);
    expect(existsSync(home) && existsSync(join(home, 'medbench.sqlite'))).toBe(false);
    // The dataset's own o200k counts, and 500 output tokens (the default limit) a sample, at the prices.
    const samples = readFileSync(dataset, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line));
    const input = samples.reduce((sum, sample) => sum + sample.promptTokens.o200k_base, 0);
    const output = samples.length * 500;
    const cost = ((input * 2 + output * 8) / 1e6).toFixed(4);
    expect(result.stdout).toContain(`all\t${samples.length}\t0\t0\t${input}\t${output}\t${cost}`);
  });
});
