import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, runCli, temporaryHome } from './cli.js';
import { resultIds, storeSnapshot } from './store-snapshot.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah.jsonl');
let server: LlmTestServer;
beforeAll(async () => {
  await buildSampleNiah(dataset, '1000,2000');
  // Answers vary by sample, so equal reports mean the same answers in the same places.
  server = await startLlmTestServer({
    fallback: (request) => {
      const prompt = (request.body.messages as Array<{ content: string }>)
        .map((message) => message.content)
        .join('');
      return {
        kind: 'answer',
        text: JSON.stringify({ answer: prompt.length % 3 === 0 ? 'Shuweng' : `x${prompt.length}` }),
      };
    },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

const run = (home: string, ...extra: string[]) =>
  runCli([
    '--home',
    home,
    'run',
    '--dataset',
    dataset,
    '--model',
    `openai-compatible:m@${server.url}/v1`,
    '--context-window',
    '128000',
    ...extra,
  ]);

/** The report as JSON, without the moments it was made and its runs were created. */
async function report(home: string): Promise<unknown> {
  const printed = await runCli(['--home', home, 'report', '--suite', 'medodyssey', '--json']);
  expect(printed.code, printed.stderr).toBe(0);
  return JSON.parse(printed.stdout, (key, value) =>
    key === 'generatedAt' || key === 'createdAt' ? undefined : value,
  );
}

describe('run --shard i/n and merge', () => {
  it('three machines split a run; merged, their stores report exactly what one machine does', async () => {
    const single = temporaryHome();
    expect((await run(single)).code).toBe(0);
    const all = resultIds(single);
    expect(all.length).toBe(40);

    const shards = [temporaryHome(), temporaryHome(), temporaryHome()];
    for (const [index, home] of shards.entries()) {
      const result = await run(home, '--shard', `${index + 1}/3`);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`(shard ${index + 1}/3)`);
    }
    const parts = shards.map((home) => resultIds(home));
    // Every sample in exactly one shard, none empty.
    expect(parts.every((part) => part.length > 0)).toBe(true);
    expect(parts.flat().sort()).toEqual(all);

    const merged = temporaryHome();
    const merging = await runCli(['--home', merged, 'merge', ...shards]);
    expect(merging.code, merging.stderr).toBe(0);
    expect(merging.stderr).toMatch(/Merged .*: 1 runs, \d+ results/);
    expect(resultIds(merged)).toEqual(all);
    expect(await report(merged)).toEqual(await report(single));

    // Merging again adds nothing; resuming the merged run sends nothing.
    const before = server.requests.length;
    expect((await runCli(['--home', merged, 'merge', ...shards])).stderr).toMatch(/: 0 runs, 0 results/);
    expect((await run(merged)).code).toBe(0);
    expect(server.requests.length).toBe(before);
  });

  it('refuses a bad shard and a missing store, changing nothing', async () => {
    const home = temporaryHome();
    const bad = await run(home, '--shard', '4/3');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--shard');
    const missing = await runCli(['--home', home, 'merge', join(scratch, 'nowhere')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('No medbench store at');
    expect(storeSnapshot(home)).toBe('absent');
  });
});
