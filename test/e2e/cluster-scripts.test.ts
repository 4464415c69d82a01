import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmTestServer } from '../support/llm-test-server.js';
import { type CliResult, ROOT, temporaryHome } from './cli.js';
import { report, shardedRunFixture } from './shard-and-merge.js';
import { resultIds } from './store-snapshot.js';

// The shipped Slurm scripts and the Kubernetes Jobs' scripts, run as the cluster runs them: each
// task or pod with the variables its scheduler sets, `medbench` on the PATH, then the merge step.

const scratch = temporaryHome();
const dataset = join(scratch, 'niah.jsonl');
const bin = join(scratch, 'bin');
let server: LlmTestServer;

beforeAll(async () => {
  server = await shardedRunFixture(dataset);
  // The submit folder's config names the model, as a user's would.
  const model = {
    provider: 'openai-compatible',
    model: 'm',
    endpoints: [{ baseURL: `${server.url}/v1` }],
    contextWindow: 128000,
  };
  writeFileSync(join(scratch, 'medbench.config.json'), JSON.stringify({ models: { m: model } }));
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'medbench'),
    `#!/bin/sh\nexec '${process.execPath}' '${join(ROOT, 'bin', 'medbench.js')}' "$@"\n`,
  );
  chmodSync(join(bin, 'medbench'), 0o755);
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs `command` in the submit folder with `medbench` on the PATH and `environment`. */
function shell(command: string, args: string[], environment: NodeJS.ProcessEnv): Promise<CliResult> {
  const child = spawn(command, args, {
    cwd: scratch,
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: scratch, TMPDIR: scratch, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** The one machine's report the merged shards must equal. */
async function singleMachine(): Promise<{ all: string[]; expected: unknown }> {
  const single = temporaryHome();
  const result = await shell('medbench', ['--home', single, 'run', '--dataset', dataset, '--model', 'm'], {});
  expect(result.code, result.stderr).toBe(0);
  return { all: resultIds(single), expected: await report(single) };
}

/** A Job's shell script (`command: [sh, -c]`, `args: - |`) with its volumes moved to `mounts`. */
function jobScript(manifest: string, mounts: Record<string, string>): string {
  const text = readFileSync(join(ROOT, 'examples', manifest), 'utf8');
  const block = /\n( +)args:\n\1 {2}- \|\n((?:\1 {4}.*\n|\n)+)/.exec(text)!;
  const script = block[2]!.replace(new RegExp(`^${block[1]} {4}`, 'gm'), '');
  // One pass: a mount's new path may hold another's old one.
  const paths = new RegExp(Object.keys(mounts).join('|'), 'g');
  return script.replace(paths, (path) => mounts[path]!);
}

describe('the shipped cluster examples', () => {
  it('examples/slurm-array.sh as the tasks of --array=1-3, then examples/slurm-merge.sh: the report one machine makes', async () => {
    const { all, expected } = await singleMachine();
    const results = join(scratch, 'slurm-results');
    const common = { MEDBENCH_RESULTS: results, MEDBENCH_DATASET: dataset, MEDBENCH_MODEL: 'm' };
    const array = { SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '3', SLURM_ARRAY_TASK_STEP: '1' };
    const task = (id: number) =>
      shell('bash', [join(ROOT, 'examples', 'slurm-array.sh')], {
        ...common,
        ...array,
        SLURM_ARRAY_JOB_ID: '77',
        SLURM_ARRAY_TASK_ID: String(id),
        SLURM_ARRAY_TASK_COUNT: '3',
      });
    for (const id of [1, 2, 3]) {
      const ran = await task(id);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stderr).toContain(`(shard ${id}/3, from Slurm SLURM_ARRAY_TASK_ID=${id} of 1-3:1)`);
      expect(resultIds(join(results, 'shards', String(id))).length).toBeGreaterThan(0);
    }
    // Outside an array the script says so before it does anything.
    const outside = await shell('bash', [join(ROOT, 'examples', 'slurm-array.sh')], common);
    expect(outside.code).not.toBe(0);
    expect(outside.stderr).toContain('SLURM_ARRAY_TASK_ID: is not set: submit this script with sbatch');
    // The array submitted again: each task resumes from its stored shard and sends nothing.
    const sent = server.requests.length;
    expect((await task(2)).code).toBe(0);
    expect(server.requests.length).toBe(sent);
    const merge = await shell('bash', [join(ROOT, 'examples', 'slurm-merge.sh')], {
      ...common,
      SLURM_JOB_ID: '78',
    });
    expect(merge.code, merge.stderr).toBe(0);
    expect(merge.stdout).toContain('En.NIAH');
    expect(resultIds(join(results, 'merged'))).toEqual(all);
    expect(await report(join(results, 'merged'))).toEqual(expected);
  });

  it("the Indexed Job's pods (JOB_COMPLETION_INDEX 0 to completions − 1) and the merge Job: the report one machine makes", async () => {
    const { all, expected } = await singleMachine();
    const manifest = readFileSync(join(ROOT, 'examples', 'kubernetes-indexed-job.yaml'), 'utf8');
    const completions = Number(/\n {2}completions: (\d+)\n/.exec(manifest)![1]);
    // The pod template's count is the Job's completions.
    expect(/name: MEDBENCH_SHARD_COUNT\n +value: "(\d+)"/.exec(manifest)![1]).toBe(String(completions));
    const volume = join(scratch, 'volume');
    mkdirSync(volume);
    writeFileSync(join(volume, 'niah.jsonl'), readFileSync(dataset));
    for (let index = 0; index < completions; index++) {
      const pod = temporaryHome();
      const script = jobScript('kubernetes-indexed-job.yaml', { '/results': volume, '/work': pod });
      const run = await shell('sh', ['-c', script], {
        JOB_COMPLETION_INDEX: String(index),
        MEDBENCH_SHARD_COUNT: String(completions),
        MEDBENCH_MODEL: 'm',
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        `(shard ${index + 1}/${completions}, from Kubernetes JOB_COMPLETION_INDEX=${index}`,
      );
    }
    const script = jobScript('kubernetes-merge-job.yaml', { '/results': volume, '/work': temporaryHome() });
    const merge = await shell('sh', ['-c', script], {});
    expect(merge.code, merge.stderr).toBe(0);
    expect(resultIds(join(volume, 'merged'))).toEqual(all);
    expect(await report(join(volume, 'merged'))).toEqual(expected);
  });
});
