import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { ROOT, runCli, temporaryHome } from './cli.js';
import { filesContain, storeSnapshot } from './store-snapshot.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah.jsonl');
const TOTAL = 20; // 4 needles × 5 depths × 1 level
const servers: LlmTestServer[] = [];

beforeAll(async () => {
  const built = await runCli([
    'build',
    'medodyssey',
    '--data',
    join(ROOT, 'samples', 'medodyssey'),
    '--out',
    dataset,
    '--levels',
    '1000',
    '--task',
    'niah',
    '--lang',
    'en',
  ]);
  expect(built.code).toBe(0);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(scratch, { recursive: true, force: true });
});

async function server(text: string): Promise<LlmTestServer> {
  const started = await startLlmTestServer(() => ({ kind: 'answer', text }));
  servers.push(started);
  return started;
}

const runArgs = (home: string, url: string, ...extra: string[]) => [
  '--home',
  home,
  'run',
  '--dataset',
  dataset,
  '--model',
  `openai-compatible:same-name@${url}/v1`,
  '--context-window',
  '128000',
  '--tokenizer',
  'o200k_base',
  ...extra,
];

describe('identity: run id and response cache', () => {
  it('the same model name on a second server is a new run, and that server is called for every sample', async () => {
    const home = join(scratch, 'two-servers');
    const first = await server('{"answer": "first"}');
    const second = await server('{"answer": "second"}');
    const one = await runCli(runArgs(home, first.url));
    expect(one.code).toBe(0);
    const two = await runCli(runArgs(home, second.url));
    expect(two.code).toBe(0);
    expect(first.requests).toHaveLength(TOTAL);
    expect(second.requests).toHaveLength(TOTAL);
    expect(two.stderr).toContain('0 from cache');
    expect(storeSnapshot(home)).toMatchObject({ runs: 2, results: 2 * TOTAL, responses: 2 * TOTAL });
    // Written another way (trailing slash, user info), the first server is the same endpoint:
    // its run resumes with nothing to do, and no key-like part of the URL is stored.
    const rewritten = runArgs(home, first.url).map((arg) =>
      arg.startsWith('openai-compatible:')
        ? arg.replace('http://', 'http://user:secret-pass@').replace(/\/v1$/, '/v1/')
        : arg,
    );
    const again = await runCli(rewritten);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`0 new, ${TOTAL} from before`);
    expect(first.requests).toHaveLength(TOTAL);
    expect(storeSnapshot(home)).toMatchObject({ runs: 2 });
    expect(filesContain(home, 'secret-pass')).toEqual([]);
  });

  it('another generation parameter is another cache entry: the server is asked again', async () => {
    const home = join(scratch, 'parameters');
    const only = await server('{"answer": "x"}');
    expect((await runCli(runArgs(home, only.url))).code).toBe(0);
    expect((await runCli(runArgs(home, only.url, '--temperature', '0.7'))).code).toBe(0);
    expect((await runCli(runArgs(home, only.url, '--max-output-tokens', '64'))).code).toBe(0);
    expect(only.requests).toHaveLength(3 * TOTAL);
    // The same configuration again: a resumed run, no request.
    expect((await runCli(runArgs(home, only.url, '--temperature', '0.7'))).code).toBe(0);
    expect(only.requests).toHaveLength(3 * TOTAL);
  });
});
