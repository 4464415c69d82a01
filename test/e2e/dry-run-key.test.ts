import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddingTestServer } from '../support/embedding-test-server.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, ROOT, runCli, temporaryHome } from './cli.js';

// The key variables are left out of the child's environment (runCli passes only PATH and HOME).
const scratch = mkdtempSync(join(tmpdir(), 'medbench-dry-key-'));
const dataset = join(scratch, 'niah.jsonl');
const config = join(scratch, 'medbench.config.json');
let server: LlmTestServer;

beforeAll(async () => {
  server = await startLlmTestServer({ provider: 'anthropic' });
  await buildSampleNiah(dataset);
  const endpoints = [{ baseURL: server.url, apiKeyEnv: 'MEDBENCH_UNSET_KEY' }];
  const models = { claude: { provider: 'anthropic', model: 'claude-3-haiku-20240307', endpoints } };
  writeFileSync(config, JSON.stringify({ models }));
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('--dry-run needs no API key: it sends nothing (built CLI)', () => {
  it('run --dataset: a model whose key is not set is estimated; without --dry-run the key is asked for', async () => {
    const home = temporaryHome();
    const run = ['--home', home, 'run', '--dataset', dataset, '--model', 'claude', '--config', config];
    const dry = await runCli([...run, '--dry-run']);
    expect(dry.stderr).not.toMatch(/error \[/);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Dry run: nothing was sent or stored.');
    expect(server.requests).toHaveLength(0);
    const sent = await runCli(run);
    expect(sent.code).toBe(1);
    expect(sent.stderr).toContain(
      'error [MISSING_SECRET] The environment variable MEDBENCH_UNSET_KEY is not set.',
    );
    rmSync(home, { recursive: true, force: true });
  });

  it('a model without a tokenizer of its own (Gemini): estimated with the one the warning names, said once', async () => {
    const home = temporaryHome();
    const run = ['--home', home, 'run', '--dataset', dataset, '--model', 'gemini:gemini-2.5-flash'];
    const dry = await runCli([...run, '--context-window', '1000000', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain('too_long is judged with o200k_base, an estimate');
    expect(dry.stdout).toContain(
      'prompt sizes in o200k_base tokens (an estimate: no tokenizer is known for gemini-2.5-flash)',
    );
    expect(dry.stdout).not.toContain('UTF-8');
    // The estimate is the tokens the run would judge too_long by: the build counted o200k_base.
    const built = readFileSync(dataset, 'utf8').split('\n').slice(1).filter(Boolean);
    const tokens = built.reduce((sum, line) => sum + JSON.parse(line).promptTokens.o200k_base, 0);
    expect(dry.stdout).toMatch(new RegExp(`^all\t20\t0\t0\t${tokens}\t`, 'm'));
    // A window below the prompts: too_long by the same estimate.
    const small = await runCli([...run, '--context-window', '100', '--dry-run']);
    expect(small.stdout).toMatch(/^all\t20\t0\t20\t0\t0\t/m);
    rmSync(home, { recursive: true, force: true });
  });

  it('run medeureka: an OpenAI embedding model whose key is not set is estimated', async () => {
    const embeddings = await startEmbeddingTestServer({ dimensions: 8 });
    const home = temporaryHome();
    const models = {
      small: { provider: 'openai', model: 'text-embedding-3-small', baseURL: `${embeddings.url}/v1` },
    };
    const embeddingConfig = join(scratch, 'embedding.config.json');
    writeFileSync(embeddingConfig, JSON.stringify({ embeddingModels: models }));
    const data = join(ROOT, 'samples', 'medeureka');
    const run = [
      '--home',
      home,
      'run',
      'medeureka',
      '--data',
      data,
      '--model',
      'small',
      '--config',
      embeddingConfig,
    ];
    try {
      const dry = await runCli([...run, '--dry-run']);
      expect(dry.stderr).not.toMatch(/error \[/);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toContain('Dry run: nothing was sent or stored.');
      expect(embeddings.requests).toHaveLength(0);
      expect((await runCli(run)).stderr).toContain('error [MISSING_SECRET]');
    } finally {
      await embeddings.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
