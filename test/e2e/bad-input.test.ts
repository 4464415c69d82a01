import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSampleNiah, ROOT, runCli, temporaryHome } from './cli.js';
import { resultIds, storeDigest } from './store-snapshot.js';

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

describe('good input in other spellings is accepted', () => {
  it('a UTF-8 BOM and CRLF line ends in the needles, the dataset and the config', async () => {
    const bom = (text: string) =>
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text.replaceAll('\n', '\r\n'))]);
    const copy = join(scratch, 'bom-release');
    cpSync(samples, copy, { recursive: true });
    const needles = join(copy, 'dataset', 'task_data', 'needles', 'en_pure_needles.json');
    writeFileSync(needles, bom(readFileSync(needles, 'utf8')));
    const built = join(scratch, 'bom-built.jsonl');
    const build = await runCli([
      'build',
      'medodyssey',
      '--data',
      copy,
      '--out',
      built,
      '--levels',
      '1000',
      '--task',
      'niah',
      '--lang',
      'en',
    ]);
    expect(build.code, build.stderr).toBe(0);
    // The same samples as from the plain files.
    expect(readFileSync(built, 'utf8').split('\n').slice(1)).toEqual(
      readFileSync(dataset, 'utf8').split('\n').slice(1),
    );

    const bomDataset = join(scratch, 'bom.jsonl');
    writeFileSync(bomDataset, bom(readFileSync(dataset, 'utf8')));
    const config = join(scratch, 'bom.config.json');
    writeFileSync(config, bom(JSON.stringify({ defaults: { concurrency: 2 } }, null, 2)));
    const bomHome = temporaryHome();
    try {
      const run = await runCli([
        '--home',
        bomHome,
        'run',
        '--dataset',
        bomDataset,
        '--model',
        'baseline',
        '--config',
        config,
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(resultIds(bomHome)).toHaveLength(20);
    } finally {
      rmSync(bomHome, { recursive: true, force: true });
    }
  });
});
