import { expect } from 'vitest';
import { type CliResult, runCli, temporaryHome } from './cli.js';
import { resultIds } from './store-snapshot.js';

/**
 * Runs `run` as three shards, each in a home of its own, checks that every one of `all` (the
 * single machine's result ids) is in exactly one shard and none is empty, and merges the shards'
 * stores into a new home, which it returns.
 */
export async function shardAndMerge(
  run: (home: string, ...extra: string[]) => Promise<CliResult>,
  all: readonly string[],
): Promise<string> {
  const shards = [temporaryHome(), temporaryHome(), temporaryHome()];
  for (const [index, home] of shards.entries()) {
    const result = await run(home, '--shard', `${index + 1}/3`);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`(shard ${index + 1}/3)`);
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
