import { expect } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, type CliResult, runCli, temporaryHome } from './cli.js';
import { resultIds } from './store-snapshot.js';

/** What one machine is started with to take its shard: options and environment variables. */
export interface ShardLaunch {
  args: string[];
  environment?: NodeJS.ProcessEnv;
}

/** Machine `position` (0 to count − 1) told its shard by `--shard i/n`. */
export const byFlag = (position: number, count: number): ShardLaunch => ({
  args: ['--shard', `${position + 1}/${count}`],
});

/**
 * Runs `run` as `count` shards (three unless told), each in a home of its own and started as
 * `launch` says (`--shard i/n`, or `--shard auto` in a cluster job's environment), checks that
 * every one of `all` (the single machine's result ids) is in exactly one shard and none is empty,
 * and merges the shards' stores into a new home, which it returns.
 */
export async function shardAndMerge(
  run: (home: string, launch: ShardLaunch) => Promise<CliResult>,
  all: readonly string[],
  options: { launch?: (position: number, count: number) => ShardLaunch; count?: number } = {},
): Promise<string> {
  const count = options.count ?? 3;
  const shards = Array.from({ length: count }, () => temporaryHome());
  for (const [position, home] of shards.entries()) {
    const result = await run(home, (options.launch ?? byFlag)(position, count));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`(shard ${position + 1}/${count}`);
  }
  const parts = shards.map((home) => resultIds(home));
  expect(parts.every((part) => part.length > 0)).toBe(true);
  expect(parts.flat().sort()).toEqual(all);

  const merged = temporaryHome();
  const merging = await runCli(['--home', merged, 'merge', ...shards]);
  expect(merging.code, merging.stderr).toBe(0);
  expect(merging.stderr).toMatch(/Merged .*: 1 runs, \d+ results/);
  expect(resultIds(merged)).toEqual(all);
  return merged;
}

/**
 * The report of `home` as JSON, without the moments it was made and its runs were created, and
 * without where its manifests' files were (a cluster reads them from its own volume): the rest of
 * each manifest (hashes, settings, seeds) must merge to the one machine's.
 */
export async function report(home: string, suite = 'medodyssey'): Promise<unknown> {
  const printed = await runCli(['--home', home, 'report', '--suite', suite, '--json']);
  expect(printed.code, printed.stderr).toBe(0);
  return JSON.parse(printed.stdout, (key, value) =>
    key === 'generatedAt' || key === 'createdAt' || key === 'path' || key === 'rerun' ? undefined : value,
  );
}

/**
 * The sample NIAH at levels 1000 and 2000 written to `dataset`, and a server whose answers vary
 * by sample, so equal reports mean the same answers in the same places.
 */
export async function shardedRunFixture(dataset: string): Promise<LlmTestServer> {
  await buildSampleNiah(dataset, '1000,2000');
  return startLlmTestServer({
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
}
