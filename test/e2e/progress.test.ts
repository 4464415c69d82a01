import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, datasetRunArgs, ROOT, runCli, temporaryHome } from './cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'medbench-progress-'));
const dataset = join(scratch, 'niah.jsonl');
let server: LlmTestServer;

beforeAll(async () => {
  server = await startLlmTestServer({ fallback: () => ({ kind: 'answer', text: 'an answer' }) });
  await buildSampleNiah(dataset);
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('progress and cost lines on stderr (built CLI)', () => {
  it('a model without prices: cost — in the progress line and the summary, as in the report', async () => {
    const home = temporaryHome();
    const result = await runCli(datasetRunArgs(home, dataset, server.url));
    expect(result.code).toBe(0);
    // Not a terminal: one progress line at the end, then the summary.
    expect(result.stderr).toMatch(/20\/20 · 100% · .* · cost — · /);
    expect(result.stderr).toMatch(/output tokens, cost —\.\n/);
    expect(result.stderr).not.toContain('0.0000');
    rmSync(home, { recursive: true, force: true });
  });

  // Not a terminal: the first line of each step at once, then one every 10 s (a terminal redraws one line).
  it('build medodyssey says what it is doing before the first sample, and the dataset is written', async () => {
    const out = join(scratch, 'built.jsonl');
    const args = ['build', 'medodyssey', '--data', join(ROOT, 'samples', 'medodyssey'), '--out', out];
    const result = await runCli([...args, '--levels', '1000', '--task', 'niah', '--lang', 'en']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('build medodyssey: reading and counting the inputs\n');
    expect(result.stdout).toMatch(/^Wrote 20 samples/);
  });

  it('run --dry-run with a tokenizer the build did not count: the prompts counted, as a progress line', async () => {
    const home = temporaryHome();
    const sent = server.requests.length;
    const args = [...datasetRunArgs(home, dataset, server.url), '--tokenizer', 'llama3', '--dry-run'];
    const result = await runCli(args);
    expect(result.code).toBe(0);
    const stage = 'dry run: counting prompt tokens with llama3 (the build did not count them)';
    expect(result.stderr).toBe(`${stage} 0/20\n${stage} 20/20\n`);
    expect(result.stdout).toContain('prompt sizes in llama3 tokens');
    // Counted by the build (o200k_base): nothing to count, no line.
    const counted = await runCli([
      ...datasetRunArgs(home, dataset, server.url),
      '--tokenizer',
      'o200k_base',
      '--dry-run',
    ]);
    expect(counted.stderr).toBe('');
    expect(server.requests).toHaveLength(sent);
    rmSync(home, { recursive: true, force: true });
  });

  it('import medodyssey-outputs: files read, then the outputs stored', async () => {
    const home = temporaryHome();
    const published = join(ROOT, 'test', 'e2e', 'fixtures', 'published-release');
    const result = await runCli(['--home', home, 'import', 'medodyssey-outputs', published]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^import medodyssey-outputs: 0\/\d+ files read; reading \S+\.jsonl$/m);
    expect(result.stderr).toMatch(/^import medodyssey-outputs: storing \d+ outputs of 2 models$/m);
    rmSync(home, { recursive: true, force: true });
  });

  it('run medeureka: the task being ranked', async () => {
    const home = temporaryHome();
    const data = join(ROOT, 'samples', 'medeureka');
    const args = ['--home', home, 'run', 'medeureka', '--data', data, '--tasks', 'AskAPatient_en,Study_en'];
    const result = await runCli([...args, '--model', 'bm25']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^ranking AskAPatient_en; tasks done 0\/2$/m);
    expect(result.stderr).toMatch(/^Ranked 6 queries of 2 tasks with /m);
    rmSync(home, { recursive: true, force: true });
  });
});
