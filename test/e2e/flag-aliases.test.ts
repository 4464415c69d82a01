import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { ROOT, runCli, temporaryHome } from './cli.js';

const home = temporaryHome();
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('one spelling of a flag works wherever the other does (built CLI)', () => {
  it('build takes --tasks and --tokenizer as --task and --tokenizers; run --dataset takes a task list either way', async () => {
    const out = join(home, 'niah.jsonl');
    const data = join(ROOT, 'samples', 'medodyssey');
    const built = await runCli([
      ...['build', 'medodyssey', '--data', data, '--out', out, '--levels', '1000', '--lang', 'en'],
      ...['--tasks', 'niah', '--tokenizer', 'o200k_base,cl100k_base'],
    ]);
    expect(built.code, built.stderr).toBe(0);
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n', 1)[0]!);
    expect(header.build.tasks).toEqual(['niah']);
    expect(header.tokenizers).toEqual(['o200k_base', 'cl100k_base']);
    const run = ['--home', home, 'run', '--dataset', out, '--model', 'baseline'];
    const listed = await runCli([...run, '--tasks', 'niah', '--dry-run']);
    expect(listed.code, listed.stderr).toBe(0);
    const missing = await runCli([...run, '--task', 'niah,kg']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--task niah,kg: the dataset has no samples of kg; it has niah.');
    const help = await runCli(['build', 'medodyssey', '--help']);
    expect(help.stdout).toContain('--task <tasks>');
    expect(help.stdout).not.toContain('--tasks');
  });

  it('run medeureka takes --task as --tasks', async () => {
    const data = join(ROOT, 'samples', 'medeureka');
    const ranked = await runCli([
      ...['--home', home, 'run', 'medeureka', '--data', data, '--model', 'bm25', '--task', 'AskAPatient_en'],
    ]);
    expect(ranked.code, ranked.stderr).toBe(0);
    expect(ranked.stderr).toMatch(/^Ranked \d+ queries of 1 tasks with /m);
  });

  it('run clue takes --task as --tasks', async () => {
    const data = join(home, 'clue');
    mkdirSync(data);
    writeClueFixtures(data);
    const clue = ['run', 'clue', '--data', data, '--model', 'baseline'];
    const run = await runCli(['--home', home, ...clue, '--task', 'mednli']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse((await runCli(['--home', home, 'report', '--suite', 'clue', '--json'])).stdout);
    expect(Object.keys(report.runs[0].scores)).toEqual(['mednli']);
  });

  it('--json on providers and tokenizers', async () => {
    const providers = JSON.parse((await runCli(['providers', '--json'])).stdout);
    expect(providers.map((provider: { name: string }) => provider.name)).toContain('openai-compatible');
    expect(providers[0].capabilities.tokenCounting).toEqual(expect.any(String));
    const tokenizers = JSON.parse((await runCli(['tokenizers', '--json'])).stdout);
    expect(tokenizers).toContainEqual(expect.objectContaining({ name: 'o200k_base', cuts: true }));
  });
});
