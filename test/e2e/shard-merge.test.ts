import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmTestServer } from '../support/llm-test-server.js';
import { datasetRunArgs, ROOT, runCli, temporaryHome } from './cli.js';
import { report, type ShardLaunch, shardAndMerge, shardedRunFixture } from './shard-and-merge.js';
import { resultIds, storeSnapshot } from './store-snapshot.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah.jsonl');
let server: LlmTestServer;
beforeAll(async () => {
  server = await shardedRunFixture(dataset);
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

const run = (home: string, launch: ShardLaunch = { args: [] }) =>
  runCli([...datasetRunArgs(home, dataset, server.url), ...launch.args], launch.environment);

describe('run --shard i/n and merge', () => {
  it('three machines split a run; merged, their stores report exactly what one machine does', async () => {
    const single = temporaryHome();
    expect((await run(single)).code).toBe(0);
    const all = resultIds(single);
    expect(all.length).toBe(40);

    const shards: string[] = [];
    const merged = await shardAndMerge((home, launch) => {
      shards.push(home);
      return run(home, launch);
    }, all);
    expect(await report(merged)).toEqual(await report(single));

    // Merging again adds nothing; resuming the merged run sends nothing.
    const before = server.requests.length;
    expect((await runCli(['--home', merged, 'merge', ...shards])).stderr).toMatch(/: 0 runs, 0 results/);
    expect((await run(merged)).code).toBe(0);
    expect(server.requests.length).toBe(before);
  });

  it('run medeureka: the shards split the queries, each ranked against the whole corpus; merged, one run', async () => {
    const data = join(ROOT, 'samples', 'medeureka');
    const rank = (home: string, ...extra: string[]) =>
      runCli(['--home', home, 'run', 'medeureka', '--data', data, '--model', 'lsa', ...extra]);
    const single = temporaryHome();
    expect((await rank(single)).code).toBe(0);
    const all = rankings(single);
    expect(all.length).toBe(18);

    const shards = [temporaryHome(), temporaryHome()];
    for (const [index, home] of shards.entries()) {
      const result = await rank(home, '--shard', `${index + 1}/2`);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`of 18 samples (shard ${index + 1}/2)`);
    }
    const parts = shards.map((home) => rankings(home));
    expect(parts.every((part) => part.length > 0 && part.length < all.length)).toBe(true);
    // The same run id, and every query ranked as one machine ranks it (the whole corpus each time).
    expect(parts.flat().sort((a, b) => a.localeCompare(b))).toEqual(all);

    const merged = temporaryHome();
    expect((await runCli(['--home', merged, 'merge', ...shards])).code).toBe(0);
    expect(rankings(merged)).toEqual(all);
    expect(await report(merged, 'medeureka')).toEqual(await report(single, 'medeureka'));
    const resumed = await rank(merged);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('Ranked 0 queries');
    expect(resumed.stderr).toContain('18 ranked before');
  });

  it('refuses a bad shard and a missing store, changing nothing', async () => {
    const home = temporaryHome();
    const bad = await run(home, { args: ['--shard', '4/3'] });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--shard');
    const missing = await runCli(['--home', home, 'merge', join(scratch, 'nowhere')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('No medbench store at');
    expect(storeSnapshot(home)).toBe('absent');
  });
});

describe('run --shard auto in a cluster job', () => {
  const auto = (environment: NodeJS.ProcessEnv): ShardLaunch => ({ args: ['--shard', 'auto'], environment });

  it('three pods of a Kubernetes Indexed Job and three tasks of a Slurm array, merged, report what one machine does', async () => {
    const single = temporaryHome();
    expect((await run(single)).code).toBe(0);
    const all = resultIds(single);
    const expected = await report(single);

    // An Indexed Job with completions: 3 gives its pods JOB_COMPLETION_INDEX 0, 1, 2.
    const kubernetes = await shardAndMerge(run, all, {
      launch: (position, count) =>
        auto({ JOB_COMPLETION_INDEX: String(position), MEDBENCH_SHARD_COUNT: String(count) }),
    });
    expect(await report(kubernetes)).toEqual(expected);

    // sbatch --array=2-10:4: tasks 2, 6 and 10, as slurmctld describes the array to each.
    const told: string[] = [];
    const slurm = await shardAndMerge(
      async (home, launch) => {
        const result = await run(home, launch);
        told.push(/\(shard [^)]*\)/.exec(result.stderr)?.[0] ?? result.stderr);
        return result;
      },
      all,
      {
        launch: (position) =>
          auto({
            SLURM_ARRAY_TASK_ID: String(2 + 4 * position),
            SLURM_ARRAY_TASK_MIN: '2',
            SLURM_ARRAY_TASK_MAX: '10',
            SLURM_ARRAY_TASK_STEP: '4',
            SLURM_ARRAY_TASK_COUNT: '3',
          }),
      },
    );
    expect(told).toEqual([
      '(shard 1/3, from Slurm SLURM_ARRAY_TASK_ID=2 of 2-10:4)',
      '(shard 2/3, from Slurm SLURM_ARRAY_TASK_ID=6 of 2-10:4)',
      '(shard 3/3, from Slurm SLURM_ARRAY_TASK_ID=10 of 2-10:4)',
    ]);
    expect(await report(slurm)).toEqual(expected);
  });

  it('refuses a job environment it cannot read, saying which variable and how to fix it, changing nothing', async () => {
    const home = temporaryHome();
    const before = server.requests.length;
    const nothing = await run(home, auto({}));
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain(
      'neither JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (a Slurm array) is set',
    );
    expect(nothing.stderr).toContain('--shard i/n');
    const uncounted = await run(home, auto({ JOB_COMPLETION_INDEX: '1' }));
    expect(uncounted.code).toBe(2);
    expect(uncounted.stderr).toContain("set MEDBENCH_SHARD_COUNT to the Job's spec.completions");
    const list = await run(
      home,
      auto({
        SLURM_ARRAY_TASK_ID: '3',
        SLURM_ARRAY_TASK_MIN: '1',
        SLURM_ARRAY_TASK_MAX: '7',
        SLURM_ARRAY_TASK_STEP: '1',
        SLURM_ARRAY_TASK_COUNT: '4',
      }),
    );
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('not one evenly stepped range');
    expect(storeSnapshot(home)).toBe('absent');
    expect(server.requests.length).toBe(before);
  });
});

/** Each stored result as run, query, ranking and scores, sorted: equal lists mean the same rankings. */
function rankings(home: string): string[] {
  const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
  try {
    return (
      database
        .prepare('SELECT run_id, sample_id, parsed_json, scores_json FROM results ORDER BY run_id, sample_id')
        .all() as Array<Record<string, string>>
    ).map((row) => Object.values(row).join('\t'));
  } finally {
    database.close();
  }
}
