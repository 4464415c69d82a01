import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyGgufModel } from '../support/tiny-gguf-model.js';
import { buildSampleNiah, runCli, temporaryHome } from './cli.js';

const scratch = temporaryHome();
const model = join(scratch, 'tiny.gguf');
const dataset = join(scratch, 'niah.jsonl');
beforeAll(async () => {
  writeTinyGgufModel(model);
  await buildSampleNiah(dataset, '1000', 'niah', ['--depths', '0', '--needles', '1']);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The raw outputs of a NIAH run of the tiny GGUF model with these settings. */
async function outputsWith(settings: Record<string, unknown>): Promise<string[]> {
  const home = temporaryHome();
  const config = join(home, 'config.json');
  writeFileSync(config, JSON.stringify({ models: { tiny: { provider: 'gguf', model, ...settings } } }));
  try {
    const result = await runCli(
      ['--home', home, 'run', '--dataset', dataset, '--model', 'tiny', '--config', config].concat([
        '--context-window',
        '8192',
        '--max-output-tokens',
        '12',
      ]),
      { MEDBENCH_THREADS: '1' },
    );
    expect(result.code, result.stderr).toBe(0);
    const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
    try {
      return database.prepare('SELECT raw_output FROM results ORDER BY sample_id').pluck().all() as string[];
    } finally {
      database.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

describe('gguf: generation settings reach llama.cpp', () => {
  it('a stop sequence from the greedy answer cuts it there (customStopTriggers); topP and seed are taken', async () => {
    const [greedy] = await outputsWith({});
    expect(greedy!.length).toBeGreaterThan(4);
    const stop = greedy!.slice(3, 5);
    const [stopped] = await outputsWith({ stop: [stop], topP: 0.9, seed: 3 });
    // Cut before the stop sequence (a byte of a character split there may go with it).
    expect(greedy!.startsWith(stopped!)).toBe(true);
    expect(stopped!.length).toBeLessThanOrEqual(greedy!.indexOf(stop));
    expect(stopped).not.toContain(stop);
  }, 240_000);
});
