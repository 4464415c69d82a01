import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskUsage } from '../../src/report/usage-table.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, runCli, temporaryHome } from './cli.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah-counting.jsonl');
const home = temporaryHome();
let server: LlmTestServer;

beforeAll(async () => {
  await buildSampleNiah(dataset, '2000', 'niah,counting');
  // The server counts a token per 4 characters of the prompt and of the answer (15 → 4), and
  // reports 8 of each prompt's tokens as read from its prompt cache.
  server = await startLlmTestServer({
    fallback: () => ({ kind: 'answer', text: '{"answer": "x"}', cachedTokens: 8 }),
  });
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('tokens and cost per model and task', () => {
  it('reports what each task took and what each run paid, in text, --json and --html', async () => {
    const endpoint = { baseURL: `${server.url}/v1`, concurrency: 2 };
    const config = join(scratch, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        models: {
          // An input token costs 1, a cached one 0.5, an output token 10.
          priced: {
            label: 'priced',
            provider: 'openai-compatible',
            model: 'm',
            endpoints: [endpoint],
            prices: { inputPerMillion: 1e6, outputPerMillion: 1e7, cachedInputPerMillion: 5e5 },
          },
          // The same model and endpoint: every answer comes from the cache.
          again: {
            label: 'again',
            provider: 'openai-compatible',
            model: 'm',
            endpoints: [endpoint],
            prices: { inputPerMillion: 1e6, outputPerMillion: 1e7, cachedInputPerMillion: 5e5 },
          },
          unpriced: {
            label: 'unpriced',
            provider: 'openai-compatible',
            model: 'other',
            endpoints: [endpoint],
          },
        },
      }),
    );
    for (const model of ['priced', 'again', 'unpriced']) {
      const ran = await runCli([
        '--home',
        home,
        'run',
        '--dataset',
        dataset,
        '--model',
        model,
        '--config',
        config,
        // Another window is another run, with the same requests: `again` is answered from the cache.
        '--context-window',
        model === 'again' ? '200000' : '128000',
      ]);
      expect(ran.code, ran.stderr).toBe(0);
    }
    // What the server counted, per task: each request's prompt is one sample's.
    const samples = readFileSync(dataset, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as { task: string; prompt: string });
    const counted = { priced: new Map<string, number>(), unpriced: new Map<string, number>() };
    for (const request of server.requests) {
      const text = (request.body.messages as Array<{ content: string }>)
        .map((message) => message.content)
        .join('\n');
      const task = samples.find((sample) => text.includes(sample.prompt))!.task;
      const byTask = request.body.model === 'm' ? counted.priced : counted.unpriced;
      byTask.set(task, (byTask.get(task) ?? 0) + Math.ceil(text.length / 4));
    }
    // 24 requests for `priced`, none for `again`, 24 for `unpriced`.
    expect(server.requests).toHaveLength(48);

    const json = await runCli(['--home', home, 'report', '--suite', 'medodyssey', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const usage = (JSON.parse(json.stdout) as { usage: TaskUsage[] }).usage;
    const row = (label: string, task: string) =>
      usage.find((entry) => entry.label === label && entry.task === task)!;
    expect(usage).toHaveLength(6);
    for (const [task, samplesOfTask] of [
      ['counting', 4],
      ['niah', 20],
    ] as const) {
      const input = counted.priced.get(task)!;
      expect(row('priced', task)).toMatchObject({
        samples: samplesOfTask,
        sent: samplesOfTask,
        cached: 0,
        inputTokens: input,
        cachedInputTokens: 8 * samplesOfTask,
        outputTokens: 4 * samplesOfTask,
        cacheWriteTokens: null,
        cachedAtInputPrice: false,
      });
      // Paid: the 8 cached tokens of each prompt at half the input price; list: every token at it.
      expect(row('priced', task).cost).toBeCloseTo(input - 4 * samplesOfTask + 40 * samplesOfTask, 6);
      expect(row('priced', task).listCost).toBeCloseTo(input + 40 * samplesOfTask, 6);
      // From medbench's cache: the same tokens, cached ones included; nothing paid.
      expect(row('again', task)).toMatchObject({
        sent: 0,
        cached: samplesOfTask,
        inputTokens: input,
        cachedInputTokens: 8 * samplesOfTask,
        cost: 0,
        listCost: 0,
      });
      expect(row('unpriced', task)).toMatchObject({
        sent: samplesOfTask,
        inputTokens: counted.unpriced.get(task)!,
        cost: null,
        listCost: null,
      });
    }

    // Whole rows (--width 0): a pipe's 100 columns would split the table.
    const text = await runCli(['--home', home, 'report', '--suite', 'medodyssey', '--width', '0']);
    expect(text.stdout).toContain('Tokens and cost per model and task');
    const niahLine = text.stdout.split('\n').find((line) => /^priced\s.*\bniah\b/.test(line))!;
    const niahInput = counted.priced.get('niah')!;
    // Sent, cached, input tokens, cached tokens, output tokens, cost, list price.
    expect(niahLine.split(/\s+/).slice(-7)).toEqual([
      '20',
      '0',
      niahInput.toLocaleString('en-US'),
      '160',
      '80',
      (niahInput - 80 + 800).toFixed(4),
      (niahInput + 800).toFixed(4),
    ]);
    expect(text.stdout).toMatch(/^unpriced\s.*\bniah\s+20\s+20\s+0\s+[\d,]+\s+160\s+80\s+—\s+—$/m);
    expect(text.stdout).toContain('List price: the same sent requests');

    const page = join(scratch, 'report.html');
    const html = await runCli(['--home', home, 'report', '--suite', 'medodyssey', '--html', page]);
    expect(html.code, html.stderr).toBe(0);
    const written = readFileSync(page, 'utf8');
    expect(written).toContain('<section id="usage">');
    expect(written).toContain(
      `<td>${(niahInput - 80 + 800).toFixed(4)}</td><td>${(niahInput + 800).toFixed(4)}</td>`,
    );
    expect(written).toContain('<th scope="col">Cached tokens</th>');
    expect(written.indexOf('<section id="usage">')).toBeLessThan(written.lastIndexOf('</body>'));
  });
});
