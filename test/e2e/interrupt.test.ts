import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { ROOT, runCli, startCli, temporaryHome } from './cli.js';
import { resultIds } from './store-snapshot.js';

let server: LlmTestServer;
const scratch = temporaryHome();
const dataset = join(scratch, 'niah.jsonl');
const TOTAL = 40; // 4 needles × 5 depths × 2 levels

beforeAll(async () => {
  server = await startLlmTestServer(() => ({ kind: 'answer', text: '{"answer": "x"}', delayMs: 40 }));
  const built = await runCli([
    'build',
    'medodyssey',
    '--data',
    join(ROOT, 'samples', 'medodyssey'),
    '--out',
    dataset,
    '--levels',
    '1000,2000',
    '--task',
    'niah',
    '--lang',
    'en',
  ]);
  expect(built.code).toBe(0);
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function waitForRequests(count: number) {
  while (server.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

const runArgs = (home: string) => [
  '--home',
  home,
  'run',
  '--dataset',
  dataset,
  '--model',
  `openai-compatible:test-model@${server.url}/v1`,
  '--context-window',
  '128000',
  '--tokenizer',
  'o200k_base',
  '--concurrency',
  '2',
];

describe('interrupted runs', () => {
  it('SIGKILL mid-run loses nothing: the re-run completes only the missing samples', async () => {
    const home = join(scratch, 'kill');
    server.requests.length = 0;
    const { child, done } = startCli(runArgs(home));
    await waitForRequests(12);
    child.kill('SIGKILL');
    await done;
    const kept = resultIds(home);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(TOTAL);
    const sentBefore = server.requests.length;
    const rerun = await runCli(runArgs(home));
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toContain(`${kept.length} from before`);
    const ids = resultIds(home);
    expect(ids).toHaveLength(TOTAL);
    expect(new Set(ids).size).toBe(TOTAL);
    // Only the samples without a stored result were sent again. Lost to the kill: at most the
    // 2 requests in flight plus the responses of the last 5 ms group-commit window (with
    // 40 ms answers and 2 workers, at most 2 more).
    expect(server.requests.length - sentBefore).toBe(TOTAL - kept.length);
    expect(sentBefore).toBeLessThanOrEqual(kept.length + 4);
  });

  it('Ctrl-C stops cleanly, keeps finished work and exits 130', async () => {
    const home = join(scratch, 'sigint');
    server.requests.length = 0;
    const { child, done } = startCli(runArgs(home));
    await waitForRequests(8);
    child.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('Stopping: waiting for requests in flight');
    expect(result.stderr).toContain('Interrupted:');
    const kept = resultIds(home);
    // Requests in flight when Ctrl-C came were allowed to finish and were kept.
    expect(kept.length).toBe(server.requests.length);
    const rerun = await runCli(runArgs(home));
    expect(rerun.code).toBe(0);
    expect(resultIds(home)).toHaveLength(TOTAL);
    expect(server.requests.length).toBe(TOTAL);
  });
});
