import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSampleNiah, ROOT, runCli, temporaryHome } from './cli.js';
import { storeDigest } from './store-snapshot.js';

const home = temporaryHome();
const scratch = mkdtempSync(join(tmpdir(), 'medbench-bad-'));
const samples = join(ROOT, 'samples', 'medodyssey');
const dataset = join(scratch, 'small.jsonl');
let before: ReturnType<typeof storeDigest>;

beforeAll(async () => {
  await buildSampleNiah(dataset);
  // A store with a finished demo run, to check that failures leave it as it was.
  expect((await runCli(['--home', home, 'demo'])).code).toBe(0);
  before = storeDigest(home);
});
afterAll(async () => {
  rmSync(home, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

async function expectFailure(
  args: string[],
  code: string,
  mentions: string[],
  environment: NodeJS.ProcessEnv = {},
) {
  const result = await runCli(['--home', home, ...args], environment);
  expect(result.code, result.stderr).not.toBe(0);
  expect(result.stderr).toContain(`error [${code}]`);
  for (const text of mentions) expect(result.stderr).toContain(text);
  expect(
    result.stderr
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('medbench: error')),
  ).toHaveLength(1);
  expect(storeDigest(home)).toEqual(before);
  return result;
}

describe('bad input gets one clear error, a non-zero exit and an unchanged store', () => {
  it('a missing release folder', async () => {
    const out = join(scratch, 'x.jsonl');
    await expectFailure(
      ['build', 'medodyssey', '--data', '/no/such/release', '--out', out],
      'DATA_NOT_FOUND',
      ['/no/such/release', 'hint:'],
    );
  });

  it('a malformed needles file names the file', async () => {
    const copy = join(scratch, 'broken-release');
    cpSync(samples, copy, { recursive: true });
    const needles = join(copy, 'dataset', 'task_data', 'needles', 'en_pure_needles.json');
    writeFileSync(needles, '[{"needle": "x", "input": "q"');
    await expectFailure(
      ['build', 'medodyssey', '--data', copy, '--out', join(scratch, 'y.jsonl'), '--lang', 'en'],
      'DATA_INVALID',
      [needles],
    );
    writeFileSync(
      needles,
      '[{"needle": "x", "input": "q", "ground_truth": "not a list", "type": "general", "id": 0}]',
    );
    await expectFailure(
      ['build', 'medodyssey', '--data', copy, '--out', join(scratch, 'y.jsonl'), '--lang', 'en'],
      'DATA_INVALID',
      ['ground_truth'],
    );
  });

  it('an unknown tokenizer', async () => {
    await expectFailure(
      [
        'build',
        'medodyssey',
        '--data',
        samples,
        '--out',
        join(scratch, 'z.jsonl'),
        '--tokenizers',
        'o200k_base,nonsense',
      ],
      'TOKENIZER_UNKNOWN',
      ['nonsense', 'o200k_base'],
    );
  });

  it('an unknown model spec', async () => {
    await expectFailure(['run', '--dataset', dataset, '--model', 'gpt-9000'], 'MODEL_SPEC_INVALID', [
      'gpt-9000',
      'openai-compatible:',
    ]);
  });

  it('a config that fails its schema names the file and field', async () => {
    const config = join(scratch, 'medbench.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        models: {
          local: { provider: 'openai-compatible', model: 'm', endpoints: [{ baseURL: 'not a url' }] },
        },
      }),
    );
    await expectFailure(
      ['run', '--dataset', dataset, '--model', 'local', '--config', config],
      'CONFIG_INVALID',
      [config, 'models.local.endpoints.0.baseURL'],
    );
  });

  it('a missing API key names its variable', async () => {
    await expectFailure(
      ['run', '--dataset', dataset, '--model', 'anthropic:claude-3-haiku-20240307'],
      'MISSING_SECRET',
      ['ANTHROPIC_API_KEY'],
    );
  });

  it('a missing dataset file', async () => {
    await expectFailure(
      ['run', '--dataset', join(scratch, 'none.jsonl'), '--model', 'baseline'],
      'DATA_NOT_FOUND',
      ['none.jsonl'],
    );
  });
});
