import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, runCli, temporaryHome } from './cli.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah.jsonl');
const config = join(scratch, 'config.json');
let server: LlmTestServer;
let claude: LlmTestServer;

beforeAll(async () => {
  await buildSampleNiah(dataset, '1000');
  server = await startLlmTestServer({ fallback: () => ({ kind: 'answer', text: '{"answer": "x"}' }) });
  claude = await startLlmTestServer({ provider: 'anthropic' });
  const model = (settings: Record<string, unknown>) => ({
    provider: 'openai-compatible',
    model: 'qwq',
    endpoints: [{ baseURL: `${server.url}/v1`, concurrency: 2 }],
    contextWindow: 32768,
    ...settings,
  });
  writeFileSync(
    config,
    JSON.stringify({
      models: {
        tuned: model({ topP: 0.95, stop: ['<|im_end|>'], extraBody: { top_k: 40 } }),
        retuned: model({ topP: 0.8, stop: ['<|im_end|>'], extraBody: { top_k: 40 } }),
        refused: {
          provider: 'anthropic',
          model: 'claude-sonnet-4',
          seed: 1,
          endpoints: [{ baseURL: claude.url }],
        },
      },
    }),
  );
});
afterAll(async () => {
  await server.close();
  await claude.close();
  rmSync(scratch, { recursive: true, force: true });
});

const runWith = (home: string, model: string) =>
  runCli(['--home', home, 'run', '--dataset', dataset, '--model', model, '--config', config]);

/** Every report form says what each run was generated with, not only a label or an id. */
async function expectSettingsInReports(home: string): Promise<void> {
  const json = JSON.parse(
    (await runCli(['--home', home, 'report', '--suite', 'medodyssey', '--json'])).stdout,
  ) as {
    settings: Array<{ label: string; settings: Record<string, unknown> }>;
  };
  const tuned = { stop: ['<|im_end|>'], extraBody: { top_k: 40 } };
  expect(json.settings.map(({ label, settings }) => ({ label, settings }))).toEqual([
    { label: 'qwq', settings: expect.objectContaining({ topP: 0.95, ...tuned }) },
    { label: 'qwq', settings: expect.objectContaining({ topP: 0.8, ...tuned }) },
  ]);
  const text = (await runCli(['--home', home, 'report', '--suite', 'medodyssey'])).stdout;
  expect(text).toMatch(
    /Generation settings\n {2}qwq \(run [0-9a-f]{8}\): temperature 0, maxOutputTokens \d+, topP 0\.95, stop \["<\|im_end\|>"\], extraBody \{"top_k":40\}\n {2}qwq \(run [0-9a-f]{8}\): .*topP 0\.8,/,
  );
  const page = join(home, 'report.html');
  expect((await runCli(['--home', home, 'report', '--suite', 'medodyssey', '--html', page])).code).toBe(0);
  expect(readFileSync(page, 'utf8')).toMatch(
    /<section id="generation-settings"><h2>Generation settings<\/h2><ul><li>qwq \(run [0-9a-f]{8}\): .*topP 0\.95, stop \[&quot;&lt;\|im_end\|&gt;&quot;\], extraBody \{&quot;top_k&quot;:40\}<\/li>/,
  );
}

describe('generation settings through the built CLI', () => {
  it('sends them, and a changed one is another run that asks the model again', async () => {
    const home = temporaryHome();
    try {
      const first = await runWith(home, 'tuned');
      expect(first.stderr).not.toMatch(/error \[/);
      expect(first.code).toBe(0);
      const asked = server.requests.length;
      expect(asked).toBeGreaterThan(0);
      expect(server.requests[0]!.body).toMatchObject({ top_p: 0.95, stop: ['<|im_end|>'], top_k: 40 });
      // The same settings again: the same run, nothing asked.
      expect((await runWith(home, 'tuned')).code).toBe(0);
      expect(server.requests).toHaveLength(asked);
      // topP changed: another run, every request sent again (no cached answer fits).
      expect((await runWith(home, 'retuned')).code).toBe(0);
      expect(server.requests).toHaveLength(2 * asked);
      expect(server.requests.at(-1)!.body).toMatchObject({ top_p: 0.8 });
      const report = JSON.parse(
        (await runCli(['--home', home, 'report', '--suite', 'medodyssey', '--json'])).stdout,
      ) as { runs: Array<{ runId: string }> };
      expect(new Set(report.runs.map((run) => run.runId)).size).toBe(2);
      await expectSettingsInReports(home);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('refuses a setting the provider does not take before anything is sent or stored', async () => {
    const home = temporaryHome();
    try {
      const before = server.requests.length;
      const refused = await runWith(home, 'refused');
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(
        '[CONFIG_INVALID] model "refused" (anthropic): "seed" is not accepted by anthropic.',
      );
      expect(refused.stderr).toMatch(
        /hint: Remove it; anthropic takes topP \(top_p\), stop \(stop_sequences\)/,
      );
      expect(server.requests).toHaveLength(before);
      expect(server.probes.filter((probe) => probe.path.includes('claude'))).toEqual([]);
      expect(existsSync(home) ? readdirSync(home).filter((name) => name.endsWith('.sqlite')) : []).toEqual(
        [],
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
