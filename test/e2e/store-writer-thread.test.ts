import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAICompatibleChatModel } from '../../dist/providers/openai-compatible/openai-compatible-chat-model.js';
import { runSamples } from '../../dist/runner/run-samples.js';
import { StoreWriterThread } from '../../dist/runner/store-writer-thread.js';
import { preparePrompt, Store } from '../../dist/store/store.js';
import { niahTask } from '../../dist/suites/medodyssey/niah-task.js';
import { type Arrival, commitLags, startCpuClock } from '../support/cpu-clock.js';
import { type LlmTestServer, type RecordedRequest, startLlmTestServer } from '../support/llm-test-server.js';
import { testRun } from '../support/test-run.js';

/**
 * The built runner on a store file: its commits go to the store's writer thread (a file, more
 * than one core, the compiled worker script), and still every answer is in the store moments
 * after it arrived, a sample counts as done only once its result is, and a write that fails there
 * stops the run with the store's error.
 */
let server: LlmTestServer;
let folder: string;
let store: Store;
const path = () => join(folder, 'medbench.sqlite');

beforeEach(async () => {
  server = await startLlmTestServer({
    fallback: (request) => ({
      kind: 'answer',
      text: JSON.stringify({ answer: promptOf(request).split('\n')[0] }),
      delayMs: Math.floor(Math.random() * 20),
    }),
  });
  folder = mkdtempSync(join(tmpdir(), 'medbench-writer-'));
  store = new Store(path());
});
afterEach(async () => {
  store.close();
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

function promptOf(request: RecordedRequest): string {
  return (request.body.messages as Array<{ content: string }>)[0]!.content;
}

const run = testRun({ id: 'run-1', label: 'test-model', datasetId: 'dataset' });

function samples(prompts: string[]) {
  return prompts.map((prompt, index) => ({
    id: `s${String(index).padStart(3, '0')}`,
    suite: 'medodyssey',
    task: 'niah',
    params: { language: 'en', level: 4000, depth: 0 },
    prompt,
    promptChars: prompt.length,
    promptTokens: {},
    gold: { answers: ['A'] },
  }));
}

function binding(generate?: (chat: OpenAICompatibleChatModel) => OpenAICompatibleChatModel['generate']) {
  const chat = new OpenAICompatibleChatModel({ baseURL: `${server.url}/v1`, modelId: 'test-model' });
  const model = generate
    ? { provider: chat.provider, modelId: chat.modelId, endpoint: chat.endpoint, generate: generate(chat) }
    : chat;
  return {
    label: 'test-model',
    provider: 'openai-compatible',
    modelId: 'test-model',
    endpoints: [{ model, concurrency: 8 }],
    contextWindow: undefined,
    tokenizer: undefined,
    prices: undefined,
    instruct: true,
    systemRole: true,
    parameters: { temperature: 0, maxOutputTokens: 16 },
  };
}

const retry = { maxRetries: 0, baseDelayMs: 10, maxDelayMs: 10, maxRetryAfterMs: 10, unreachableMs: 1000 };

describe('the runner with its store writer thread (built)', () => {
  it('is the path a run on a store file takes here', async () => {
    const thread = StoreWriterThread.where(path());
    expect(thread).toBeDefined();
    await thread!.close();
    expect(StoreWriterThread.where(':memory:')).toBeUndefined();
  });

  it('commits, in order, messages that fill its ring and one larger than the ring', async () => {
    // A ring of 256 kB (records of at most 128 kB): messages of two results of about 45 kB each
    // (random text compresses to about three quarters), sent faster than the thread commits them,
    // and one of about 600 kB, which goes on the side port.
    const thread = StoreWriterThread.where(path(), { ringBytes: 256 * 1024 })!;
    await thread.ready;
    const text = (chars: number) =>
      randomBytes(Math.ceil((chars * 3) / 4))
        .toString('base64')
        .slice(0, chars);
    const prompts = Array.from({ length: 40 }, (_, index) => text(index === 20 ? 400_000 : 30_000));
    const result = (sampleId: string, prompt: string, output: string) => ({
      runId: 'run-1',
      sampleId,
      task: 'niah',
      params: { language: 'en', level: 4000, depth: 0 },
      gold: { answers: ['A'] },
      prompt: preparePrompt(prompt),
      promptChars: prompt.length,
      promptTokens: null,
      status: 'ok' as const,
      rawOutput: output,
      parsed: null,
      scores: { accuracy: 0 },
      inputTokens: null,
      outputTokens: null,
      cost: null,
      latencyMs: null,
      attempts: 1,
      cacheHit: false,
      error: null,
    });
    // Prepared first (compressing takes longer than the thread's reading), then sent at once.
    const messages = prompts.map((prompt, index) => [
      ...(index === 0 ? [{ kind: 'run' as const, run }] : []),
      {
        kind: 'result' as const,
        result: result(`s${String(index).padStart(2, '0')}`, prompt, `output ${index}`),
      },
      // The same row each time: the last message's is the one left.
      { kind: 'result' as const, result: result('same', prompt, `output ${index}`) },
    ]);
    const writes: Array<Promise<void>> = [];
    for (const message of messages) {
      writes.push(thread.write(message));
      // Each its own message (sent when the microtasks of the write end).
      await Promise.resolve();
    }
    await Promise.all(writes);
    expect(thread.counts.sidePort).toBe(1);
    expect(thread.counts.ringFull).toBeGreaterThan(0);
    await thread.close();
    const stored = store.results('run-1');
    expect(stored.map((row) => [row.sampleId, row.rawOutput])).toEqual([
      ...prompts.map((_, index) => [`s${String(index).padStart(2, '0')}`, `output ${index}`]),
      ['same', 'output 39'],
    ]);
    expect(stored.map((row) => store.getPrompt(row.promptHash!))).toEqual([...prompts, prompts[39]]);
  });

  it('wakes from its sleep for the next message after a quiet spell', async () => {
    const thread = StoreWriterThread.where(path())!;
    await thread.ready;
    await thread.write([{ kind: 'run', run }]);
    // Quiet for longer than it polls (0.1 s): it sleeps until a message wakes it.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const sent = performance.now();
    await thread.write([{ kind: 'run', run: { ...run, id: 'run-2' } }]);
    expect(performance.now() - sent).toBeLessThan(250);
    await thread.close();
    expect(store.getRun('run-2')?.id).toBe('run-2');
  });

  it('commits every answer within moments of its arrival, and counts a sample once its result is stored', async () => {
    // The store exists before the run (its first commit also creates and migrates the file).
    store.transaction(() => {});
    const clock = await startCpuClock();
    const arrivals = new Map<string, Arrival>();
    const committedWhenDone: number[] = [];
    const reader = new Database(path(), { readonly: true });
    try {
      const summary = await runSamples({
        store,
        run,
        samples: samples(Array.from({ length: 160 }, (_, index) => `Prompt ${index}\nwhich letter?`)),
        tasks: { niah: niahTask },
        model: binding((chat) => async (request) => {
          const response = await chat.generate(request);
          arrivals.set(request.messages[0]!.content.split('\n')[0]!, {
            wallMs: Date.now(),
            cpuMs: clock?.now(),
          });
          return response;
        }),
        retry,
        timeoutMs: 5000,
        onProgress: (progress) =>
          committedWhenDone.push(
            progress.done - (reader.prepare('SELECT count(*) AS n FROM results').get() as { n: number }).n,
          ),
      });
      expect(summary.done).toBe(160);
      expect(committedWhenDone).toHaveLength(160);
      expect(committedWhenDone.every((missing) => missing <= 0)).toBe(true);
      const rows = reader.prepare('SELECT text, created_at FROM responses').all() as Array<{
        text: string;
        created_at: string;
      }>;
      expect(rows).toHaveLength(160);
      const lags = commitLags(rows, arrivals, clock);
      // Another thread commits, so this one's CPU runs on meanwhile (read in 4 ms ticks here): most
      // answers are in within a tick, every one within the 15 ms the kill -9 test allows. Timing:
      // `npm test` runs this file after the others, with the kill -9 test, one file at a time.
      const sorted = [...lags].sort((left, right) => left - right);
      expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThanOrEqual(4);
      expect(sorted.at(-1)).toBeLessThanOrEqual(15);
    } finally {
      reader.close();
      await clock?.stop();
    }
  });

  it('answers a repeated prompt from the answer on its way to the store', async () => {
    const prompts = Array.from({ length: 40 }, (_, index) => `Prompt ${index % 4}\nwhich letter?`);
    const model = binding();
    model.endpoints[0]!.concurrency = 1;
    const summary = await runSamples({
      store,
      run,
      samples: samples(prompts),
      tasks: { niah: niahTask },
      model,
      retry,
      timeoutMs: 5000,
    });
    expect([summary.done, summary.cached]).toEqual([40, 36]);
    expect(server.requests).toHaveLength(4);
    expect(store.countResults('run-1')).toBe(40);
  });

  it('stops the run with the store error when the writer thread cannot commit, keeping what it had', async () => {
    // The first commit creates the store; then every new cached answer is refused.
    const first = await runSamples({
      store,
      run,
      samples: samples(['Prompt first\nwhich letter?']),
      tasks: { niah: niahTask },
      model: binding(),
      retry,
      timeoutMs: 5000,
    });
    expect(first.done).toBe(1);
    const raw = new Database(path());
    raw.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON responses BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;",
    );
    raw.close();
    const failing = runSamples({
      store,
      run,
      samples: samples(Array.from({ length: 30 }, (_, index) => `Prompt ${index}\nwhich letter?`)),
      tasks: { niah: niahTask },
      model: binding(),
      retry,
      timeoutMs: 5000,
    });
    await expect(failing).rejects.toMatchObject({
      code: 'STORE_ERROR',
      message: expect.stringContaining('database or disk is full'),
    });
    // The run stopped at once: what is stored is whole (a result carries its answer's text).
    const results = store.results('run-1');
    expect(results.length).toBeLessThan(31);
    expect(results.every((result) => result.status === 'ok' && result.rawOutput !== null)).toBe(true);
  });
});
