import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runManifestSchema } from '../../src/compose/run-manifest-schema.js';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { ROOT, runCli, temporaryHome } from './cli.js';

// A CLUE run's manifest (`export manifest`, `report --json`) and `rerun`: its prompts rebuilt
// byte for byte and sent again; a changed file or prompt refused before anything is sent.
const data = mkdtempSync(join(tmpdir(), 'medbench-manifest-'));
const home = temporaryHome();
const manifestFile = join(data, 'manifest.json');
const KEY = 'sk-manifest-test-secret-0123456789';
const env = { MANIFEST_TEST_KEY: KEY };
let server: LlmTestServer;
let model: string;
let firstRequests: unknown[];

beforeAll(async () => {
  mkdirSync(join(data, 'clue'));
  writeClueFixtures(join(data, 'clue'));
  server = await startLlmTestServer({
    fallback: () => ({ kind: 'answer', text: 'ENTAILMENT', model: 'clinical-2026-01-15' }),
  });
  model = `openai-compatible:clinical@${server.url}/v1`;
  const run = await runCli(
    [
      ...['--home', home, 'run', 'clue', '--data', join(data, 'clue'), '--model', model],
      ...['--api-key-env', 'MANIFEST_TEST_KEY', '--tasks', 'mednli,meqsum', '--tokenizer', 'o200k_base'],
      ...['--context-window', '8000', '--temperature', '0.2'],
    ],
    env,
  );
  expect(run.code, run.stderr).toBe(0);
  firstRequests = server.requests.map((request) => request.body.messages);
  const exported = await runCli(['--home', home, 'export', 'manifest', 'clinical', '--out', manifestFile]);
  expect(exported.code, exported.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await server.close();
  rmSync(data, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const manifest = () => runManifestSchema.parse(JSON.parse(readFileSync(manifestFile, 'utf8')));
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('a CLUE run’s manifest', () => {
  it('holds the files’ and prompts’ hashes, the settings as sent and the model the provider named', () => {
    const { run, recipe, returnedModels } = manifest();
    expect(run).toMatchObject({ suite: 'clue', label: 'clinical', tasks: ['mednli', 'meqsum'] });
    expect(run.protocol).toMatchObject({ name: 'paper-2024' });
    expect(returnedModels).toEqual(['clinical-2026-01-15']);
    const mednli = recipe!.inputs.find((input) => input.role === 'clue mednli')!;
    expect(mednli.sha256).toBe(sha256(mednli.path));
    expect(recipe!.prompts.count).toBe(5);
    expect(recipe!.prompts.samples).toHaveLength(5);
    expect(recipe!.prompts.templates['mednli.system']).toBe(
      createHash('sha256').update(firstRequestSystem()).digest('hex'),
    );
    expect(recipe!.tokenizer).toMatchObject({ name: 'o200k_base', exact: true, package: 'gpt-tokenizer' });
    expect(recipe!.tokenizer!.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(recipe!.generation!.model).toMatchObject({ temperature: 0.2 });
    expect(recipe!.provider).toEqual({
      name: 'openai-compatible',
      modelId: 'clinical',
      endpoints: [`${server.url}/v1`],
    });
    expect(recipe!.restrictedData).toMatchObject({ level: 'restricted', redacted: false });
    expect(recipe!.medbench.code).toMatch(/^[0-9a-f]{64}$/);
    expect(recipe!.rerun.suite).toBe('clue');
    expect(readFileSync(manifestFile, 'utf8')).not.toContain(KEY);
  });

  it('fits the JSON Schema the package ships (schemas/manifest.schema.json)', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'manifest.schema.json'), 'utf8'));
    // ajv (draft 2020-12): the schema's tuples (prefixItems) are beyond the repository's own check.
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(JSON.parse(readFileSync(manifestFile, 'utf8'))), JSON.stringify(validate.errors)).toBe(
      true,
    );
    expect(validate({ ...manifest(), medbenchManifest: 2 })).toBe(false);
  });

  it('is in report --json, each run’s, without the prompts of each sample', async () => {
    const report = await runCli(['--home', home, 'report', '--suite', 'clue', '--json']);
    expect(report.code, report.stderr).toBe(0);
    const [run] = JSON.parse(report.stdout).runs;
    const exported = manifest();
    delete exported.recipe!.prompts.samples;
    expect(run.manifest).toEqual(exported);
  });
});

/** MedNLI's system prompt as the first run sent it. */
function firstRequestSystem(): string {
  const conversations = firstRequests as Array<Array<{ role: string; content: string }>>;
  const mednli = conversations.find((messages) => messages[1]?.content.includes('SENTENCE_1'))!;
  return mednli[0]!.content;
}

describe('medbench rerun', () => {
  it('rebuilds the same prompts byte for byte and sends them (a fresh home: nothing cached)', async () => {
    const again = temporaryHome();
    const before = server.requests.length;
    const rerun = await runCli(['--home', again, 'rerun', manifestFile, '--data', join(data, 'clue')], env);
    rmSync(again, { recursive: true, force: true });
    expect(rerun.code, rerun.stderr).toBe(0);
    const sent = server.requests.slice(before).map((request) => JSON.stringify(request.body.messages));
    expect(sent.sort()).toEqual(firstRequests.map((messages) => JSON.stringify(messages)).sort());
  });

  it('refuses a data file whose hash differs, naming it, before anything is sent', async () => {
    const changed = join(data, 'changed');
    cpSync(join(data, 'clue'), changed, { recursive: true });
    const mednli = manifest().recipe!.inputs.find((input) => input.role === 'clue mednli')!;
    const file = join(changed, mednli.path.slice(join(data, 'clue').length));
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n`);
    const before = server.requests.length;
    const fresh = temporaryHome();
    const rerun = await runCli(['--home', fresh, 'rerun', manifestFile, '--data', changed], env);
    expect(rerun.code).toBe(1);
    // Refused before the store is opened: none is made.
    expect(existsSync(join(fresh, 'medbench.sqlite'))).toBe(false);
    expect(rerun.stderr).toContain(`${file} (clue mednli) differs from the file the run read`);
    expect(server.requests.length).toBe(before);
  });

  it('refuses prompts that differ from the manifest’s, naming the first, before anything is sent', async () => {
    const edited = manifest();
    const [id] = edited.recipe!.prompts.samples![2]!;
    edited.recipe!.prompts.samples![2] = [id, '0'.repeat(64)];
    edited.recipe!.prompts.sha256 = '1'.repeat(64);
    const file = join(data, 'edited.json');
    writeFileSync(file, JSON.stringify(edited));
    const before = server.requests.length;
    const rerun = await runCli(['--home', temporaryHome(), 'rerun', file, '--data', join(data, 'clue')], env);
    expect(rerun.code).toBe(1);
    expect(rerun.stderr).toContain('The rebuilt prompts are not those of the run');
    expect(rerun.stderr).toContain(`The first that differs: sample ${id}.`);
    expect(server.requests.length).toBe(before);
  });
});
