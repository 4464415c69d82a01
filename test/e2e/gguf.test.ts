import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { childProcessesOf } from '../support/process-probe.js';
import { writeTinyGgufModel } from '../support/tiny-gguf-model.js';
import { buildSampleNiah, runCli, startCli, temporaryHome } from './cli.js';

const scratch = temporaryHome();
// One llama.cpp thread: its threads spin-wait, and a test machine runs other tests beside it.
const llamaCli = (args: string[]) => runCli(args, { MEDBENCH_THREADS: '1' });
/** `run --dataset` of the NIAH samples on a GGUF file with a window. */
const runNiah = (home: string, file: string, window: string, ...extra: string[]) =>
  llamaCli([
    '--home',
    home,
    'run',
    '--dataset',
    dataset,
    '--model',
    `gguf:${file}`,
    '--context-window',
    window,
    ...extra,
  ]);
const model = join(scratch, 'tiny.gguf');
const dataset = join(scratch, 'niah.jsonl');
beforeAll(async () => {
  writeTinyGgufModel(model);
  await buildSampleNiah(dataset, '1000', 'niah', ['--depths', '0,100', '--needles', '1']);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function outputs(
  home: string,
): Array<{ sample_id: string; status: string; raw_output: string; input_tokens: number }> {
  const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
  try {
    return database
      .prepare('SELECT sample_id, status, raw_output, input_tokens FROM results ORDER BY sample_id')
      .all() as Array<{ sample_id: string; status: string; raw_output: string; input_tokens: number }>;
  } finally {
    database.close();
  }
}

/** Results stored while a run is under way (none while the store is still being created). */
function storedSoFar(home: string): number {
  try {
    return outputs(home).length;
  } catch {
    return 0;
  }
}

describe('gguf:<file> — a local model through llama.cpp, no server', () => {
  it('runs real NIAH samples greedily: the same answers twice, counted by the model own vocabulary', async () => {
    const run = (home: string) => runNiah(home, model, '8192', '--max-output-tokens', '6');
    const [first, second] = [temporaryHome(), temporaryHome()];
    const one = await run(first);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr).not.toContain('estimate');
    const two = await run(second);
    expect(two.code, two.stderr).toBe(0);
    const [a, b] = [outputs(first), outputs(second)];
    expect(a.length).toBeGreaterThan(0);
    expect(a.every((row) => row.status !== 'error')).toBe(true);
    expect(b).toEqual(a);
    // Byte-level vocabulary: a prompt has more tokens than characters / 2.
    expect(a.every((row) => row.input_tokens > 1000)).toBe(true);
  }, 240_000);

  it('runs real CLUE items too, MIMIC-derived MedNLI included: in process, nothing leaves the machine', async () => {
    const home = temporaryHome();
    const data = join(scratch, 'clue');
    mkdirSync(data, { recursive: true });
    writeClueFixtures(data);
    const result = await llamaCli([
      ...['--home', home, 'run', 'clue', '--data', data, '--tasks', 'meqsum,mednli', '--limit', '1'],
      ...['--model', `gguf:${model}`, '--context-window', '8192', '--max-output-tokens', '2'],
    ]);
    expect(result.code, result.stderr).toBe(0);
    const rows = outputs(home);
    expect(rows.map((row) => row.sample_id.split('/')[0])).toEqual(['mednli', 'meqsum']);
    expect(rows.every((row) => row.status !== 'error')).toBe(true);
  }, 240_000);

  it('a window above the model trained context, or a missing file, is refused before anything runs', async () => {
    const home = temporaryHome();
    const tooLong = await runNiah(home, model, '65536');
    expect(tooLong.code).not.toBe(0);
    expect(tooLong.stderr).toContain('--context-window 16384');
    const missing = await runNiah(home, join(scratch, 'none.gguf'), '4096');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('No GGUF model file at');
    // A damaged length in the tensor table: node-llama-cpp's header reader looped without end on it.
    const bytes = readFileSync(model);
    const name = bytes.indexOf(Buffer.from('blk.0.attn_v.weight', 'latin1')) - 8;
    bytes.writeBigUInt64LE(50_963n, name);
    const damaged = join(scratch, 'damaged.gguf');
    writeFileSync(damaged, bytes);
    const refused = await runNiah(home, damaged, '4096');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${damaged} is not a well-formed GGUF model file: the name of tensor 6`);
    expect(existsSync(join(home, 'medbench.sqlite'))).toBe(false);
  }, 120_000);

  it('llama.cpp stopping its process is an error of medbench, not the end of it', async () => {
    // Loading: a file without llama.attention.head_count passes the header check, but llama.cpp
    // asserts on the tensor shapes it derives (GGML_ASSERT stops the process it runs in).
    const bytes = readFileSync(model);
    const key = Buffer.from('llama.attention.head_count\u001a', 'latin1');
    bytes.write('llama.attention.head_cxunt', bytes.indexOf(key.subarray(0, 26)), 'latin1');
    const headless = join(scratch, 'headless.gguf');
    writeFileSync(headless, bytes);
    const home = temporaryHome();
    const loading = await runNiah(home, headless, '4096');
    expect(loading.code).toBe(1);
    expect(loading.stderr).toContain(
      `[MODEL_FOLDER_INVALID] llama.cpp was stopped by SIGABRT while loading ${headless}: `,
    );
    expect(loading.stderr).toContain('GGML_ASSERT');
    expect(existsSync(join(home, 'medbench.sqlite'))).toBe(false);

    // Answering: the process llama.cpp runs in is killed once the run is under way. The request
    // it was answering is retried on a new process, which loads the model again; the answers are
    // those of an undisturbed run.
    const five = join(scratch, 'niah-five.jsonl');
    await buildSampleNiah(five, '1000', 'niah', ['--depths', '0,25,50,75,100', '--needles', '1']);
    const args = (at: string) => [
      ...['--home', at, 'run', '--dataset', five, '--model', `gguf:${model}`, '--context-window', '4096'],
      ...['--max-output-tokens', '200'],
    ];
    const run = startCli(args(home), { MEDBENCH_THREADS: '1' });
    let killed = 0;
    while (killed === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (!existsSync(join(home, 'medbench.sqlite')) || storedSoFar(home) === 0) continue;
      for (const pid of childProcessesOf(run.child.pid)) {
        process.kill(pid, 'SIGKILL');
        killed++;
      }
    }
    const disturbed = await run.done;
    expect(disturbed.code, disturbed.stderr).toBe(0);
    expect(disturbed.stderr).toContain('llama.cpp was stopped by SIGKILL while answering');
    const undisturbed = temporaryHome();
    expect((await llamaCli(args(undisturbed))).code).toBe(0);
    const answers = (at: string) => outputs(at).map((row) => [row.sample_id, row.status, row.raw_output]);
    expect(answers(home)).toEqual(answers(undisturbed));
    expect(answers(home).length).toBe(5);
  }, 240_000);
});
