import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Arrival, commitLags, startCpuClock } from '../../test/support/cpu-clock.js';
import {
  type LlmTestServer,
  type RecordedRequest,
  startLlmTestServer,
} from '../../test/support/llm-test-server.js';
import type { ChatModel } from '../core/chat-model.js';
import type { MedbenchError } from '../core/errors.js';
import type { Sample } from '../core/sample.js';
import { OpenAICompatibleChatModel } from '../providers/openai-compatible/openai-compatible-chat-model.js';
import { RequestClaims } from '../store/request-claims.js';
import { type RunRecord, Store } from '../store/store.js';
import { niahTask } from '../suites/medodyssey/niah-task.js';
import { getTokenizer } from '../tokenizers/registry.js';
import type { ModelBinding } from './model-binding.js';
import { DEFAULT_RETRY_POLICY } from './retry.js';
import { runSamples } from './run-samples.js';

let server: LlmTestServer;
let store: Store;
beforeEach(async () => {
  server = await startLlmTestServer({
    fallback: (request) => {
      const prompt = (request.body.messages as Array<{ content: string }>)[0]!.content;
      return {
        kind: 'answer',
        text: prompt.includes('ANSWER-A') ? '{"answer": "A"}' : '{"answer": "wrong"}',
      };
    },
  });
  store = new Store(':memory:');
});
afterEach(async () => {
  store.close();
  await server.close();
});

function promptOf(request: RecordedRequest): string {
  return (request.body.messages as Array<{ content: string }>)[0]!.content;
}

function samples(count: number, extra: Partial<Sample> = {}): Sample[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `s${String(index).padStart(3, '0')}`,
    suite: 'medodyssey',
    task: 'niah',
    params: { language: 'en', level: 4000, depth: 0 },
    prompt: `Prompt ${index} ${index % 2 === 0 ? 'ANSWER-A' : ''}`,
    promptChars: 20,
    promptTokens: {},
    gold: { answers: ['A'] },
    ...extra,
  }));
}

const run: RunRecord = {
  id: 'run-1',
  suite: 'medodyssey',
  label: 'test-model',
  datasetId: 'dataset',
  datasetPath: null,
  model: {},
  parameters: {},
  source: 'medbench',
  scoringMode: 'standard',
  createdAt: new Date().toISOString(),
};

async function binding(
  options: { concurrency?: number; endpoints?: number; window?: number } = {},
): Promise<ModelBinding> {
  return {
    label: 'test-model',
    provider: 'openai-compatible',
    modelId: 'test-model',
    endpoints: Array.from({ length: options.endpoints ?? 1 }, (_, index) => ({
      model: new OpenAICompatibleChatModel({ baseURL: `${server.url}/e${index}/v1`, modelId: 'test-model' }),
      concurrency: options.concurrency ?? 4,
    })),
    contextWindow: options.window,
    tokenizer: await getTokenizer('o200k_base'),
    prices: { inputPerMillion: 2.5, outputPerMillion: 10 },
    instruct: true,
    systemRole: true,
    parameters: { temperature: 0, maxOutputTokens: 100 },
  };
}

const fastRetry = { ...DEFAULT_RETRY_POLICY, maxRetries: 3, baseDelayMs: 10, maxDelayMs: 50 };

async function go(
  model: ModelBinding,
  items: Sample[],
  extra: Partial<Parameters<typeof runSamples>[0]> = {},
) {
  return runSamples({
    store,
    run,
    samples: items,
    tasks: { niah: niahTask },
    model,
    retry: fastRetry,
    timeoutMs: 5000,
    ...extra,
  });
}

describe('runSamples', () => {
  it('stores every result with its score, tokens and cost', async () => {
    const summary = await go(await binding(), samples(6));
    expect(summary.done).toBe(6);
    const results = store.results('run-1');
    expect(results.map((result) => result.scores.esm)).toEqual([1, 0, 1, 0, 1, 0]);
    expect(results.every((result) => result.status === 'ok' && result.cost! > 0)).toBe(true);
    expect(server.requests).toHaveLength(6);
    expect(summary.cost).toBeCloseTo(
      results.reduce((sum, result) => sum + result.cost!, 0),
      10,
    );
  });

  it('sends prompts that share a prefix back to back, and scores each as in the given order', async () => {
    // Two haystacks, each with needles at two depths, given interleaved.
    const texts = [
      'HAY-x ANSWER-A STACK',
      'BALE-y BALE',
      'HAY STACK-x',
      'BALE ANSWER-A BALE-x',
      'HAY-y STACK',
    ];
    const items = texts.map((prompt, index) => ({ ...samples(1)[0]!, id: `s${index}`, prompt }));
    await go(await binding({ concurrency: 1 }), items);
    expect(server.requests.map(promptOf)).toEqual([
      'BALE ANSWER-A BALE-x',
      'BALE-y BALE',
      'HAY STACK-x',
      'HAY-x ANSWER-A STACK',
      'HAY-y STACK',
    ]);
    const scores = new Map(store.results('run-1').map((result) => [result.sampleId, result.scores.esm]));
    expect(Object.fromEntries(scores)).toEqual({ s0: 1, s1: 0, s2: 0, s3: 1, s4: 0 });
  });

  it('gives each slot its own run of the prefix order: what shares a prefix is not sent side by side', async () => {
    const texts = ['HAY-y', 'BALE-x', 'HAY-x', 'BALE-y'];
    const items = texts.map((prompt, index) => ({ ...samples(1)[0]!, id: `s${index}`, prompt }));
    await go(await binding({ concurrency: 2 }), items);
    // Runs BALE-x BALE-y | HAY-x HAY-y: the two slots start with one of each.
    expect(server.requests.slice(0, 2).map(promptOf).sort()).toEqual(['BALE-x', 'HAY-x']);
    expect(server.requests).toHaveLength(4);
  });

  it('commits every answer within 5 ms of its arrival, before the sample counts as done', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'medbench-commit-'));
    const fileStore = new Store(join(folder, 'medbench.sqlite'));
    // A store that does not exist yet is created by its first commit, which then also opens and
    // migrates the file (about 10 ms, once per store): measured here is every other commit.
    fileStore.transaction(() => {});
    const clock = await startCpuClock();
    try {
      server.fallback = (request) => ({
        kind: 'answer',
        text: JSON.stringify({ answer: promptOf(request).split('\n')[0] }),
        delayMs: Math.floor(Math.random() * 20),
      });
      // The real HTTP adapter, with the moment each answer reached medbench noted: its wall time
      // and this thread's CPU time. Judged on the CPU clock where there is one, a lag measures the
      // work done before the commit, not the time a loaded machine kept the thread off a CPU.
      const arrivals = new Map<string, Arrival>();
      const model = await binding({ concurrency: 8 });
      const http = model.endpoints[0]!.model;
      const timed: ChatModel = {
        provider: http.provider,
        modelId: http.modelId,
        endpoint: http.endpoint,
        generate: async (request) => {
          const response = await http.generate(request);
          arrivals.set(request.messages[0]!.content.split('\n')[0]!, {
            wallMs: Date.now(),
            cpuMs: clock?.now(),
          });
          return response;
        },
      };
      const items = samples(120).map((sample, index) => ({
        ...sample,
        // Long prompts, counted and compressed while other answers arrive.
        prompt: `Prompt ${index}\n${'A line of the haystack.\n'.repeat(8000)}`,
      }));
      const committedWhenDone: number[] = [];
      await go({ ...model, endpoints: [{ model: timed, concurrency: 8 }] }, items, {
        store: fileStore,
        onProgress: (progress) => committedWhenDone.push(progress.done - fileStore.countResults('run-1')),
      });
      // Every sample was in the store by the time it was counted as done.
      expect(committedWhenDone.every((missing) => missing <= 0)).toBe(true);
      const database = new Database(fileStore.path, { readonly: true });
      const rows = database.prepare('SELECT text, created_at FROM responses').all() as Array<{
        text: string;
        created_at: string;
      }>;
      database.close();
      const lags = commitLags(rows, arrivals, clock);
      expect(lags).toHaveLength(120);
      expect(Math.max(...lags)).toBeLessThanOrEqual(5);
    } finally {
      await clock?.stop();
      fileStore.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a task whose scoring throws stops the run with that error, its answers kept in the cache', async () => {
    const throwing = {
      ...niahTask,
      score: () => {
        throw new Error('a scoring bug');
      },
    };
    await expect(
      go(await binding({ concurrency: 2 }), samples(6), { tasks: { niah: throwing } }),
    ).rejects.toThrow('a scoring bug');
    expect(store.countResults('run-1')).toBe(0);
    // The answers that arrived are in the cache: the fixed run takes them from there.
    const kept = store.countCachedResponses();
    expect(kept).toBeGreaterThan(0);
    const fixed = await go(await binding({ concurrency: 2 }), samples(6));
    expect([fixed.done, fixed.cached]).toEqual([6, kept]);
  });

  it('re-running costs nothing: finished samples are skipped', async () => {
    await go(await binding(), samples(5));
    const summary = await go(await binding(), samples(5));
    expect([summary.alreadyDone, summary.done, server.requests.length]).toEqual([5, 0, 5]);
  });

  it('sends the whole conversation of a sample that has one, and caches by it', async () => {
    const conversation = samples(1, {
      messages: [
        { role: 'system', content: 'You summarise questions.' },
        { role: 'user', content: 'Shot question?' },
        { role: 'assistant', content: 'Shot answer.' },
        { role: 'user', content: 'Prompt 0 ANSWER-A' },
      ],
    });
    await go(await binding(), conversation);
    expect(server.requests[0]!.body.messages).toEqual(conversation[0]!.messages);
    // The same final prompt without the shots is another request, not a cache hit.
    const summary = await go(await binding(), samples(1), { run: { ...run, id: 'run-plain' } });
    expect([summary.cached, server.requests.length]).toEqual([0, 2]);
  });

  it('answers a new run of the same requests from the response cache', async () => {
    await go(await binding(), samples(3));
    const summary = await go(await binding(), samples(3), { run: { ...run, id: 'run-2' } });
    expect([summary.cached, server.requests.length]).toEqual([3, 3]);
    expect(store.results('run-2').every((result) => result.cacheHit && result.cost === 0)).toBe(true);
  });

  it('retries 429 after the Retry-After delay, and 500s with backoff', async () => {
    server.script.push({ kind: 'status', status: 429, retryAfter: '0.3' }, { kind: 'status', status: 500 });
    const started = Date.now();
    const summary = await go(await binding({ concurrency: 1 }), samples(1));
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(summary.errors).toBe(0);
    expect(store.results('run-1')[0]).toMatchObject({ status: 'ok', attempts: 3 });
  });

  it('records an error after the retries run out, and retries it on the next run', async () => {
    server.script.push(...Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 503 })));
    const summary = await go(await binding({ concurrency: 1 }), samples(2));
    expect(summary.errors).toBe(1);
    expect(store.results('run-1').map((result) => result.status)).toEqual(['error', 'ok']);
    await go(await binding({ concurrency: 1 }), samples(2));
    expect(store.results('run-1').map((result) => result.status)).toEqual(['ok', 'ok']);
  });

  it('records too_long without sending when the prompt exceeds the window', async () => {
    const items = samples(2);
    items[0] = { ...items[0]!, prompt: 'word '.repeat(200) };
    const summary = await go(await binding({ window: 100 }), items);
    expect(summary.tooLong).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(store.results('run-1')[0]).toMatchObject({ status: 'too_long', scores: { esm: 0, ssm: 0 } });
  });

  it('uses the token count recorded in the dataset when there is one', async () => {
    const items = samples(1, { promptTokens: { o200k_base: 999_999 } });
    const summary = await go(await binding({ window: 128_000 }), items);
    expect(summary.tooLong).toBe(1);
  });

  it('leaves the store unchanged when the endpoint refuses the credentials', async () => {
    server.fallback = () => ({ kind: 'status', status: 401 });
    const items = samples(3);
    items.push({ ...items[0]!, id: 'long', prompt: 'word '.repeat(500) });
    await expect(go(await binding({ window: 100 }), items)).rejects.toMatchObject({ code: 'ENDPOINT_AUTH' });
    expect(store.getRun('run-1')).toBeUndefined();
    expect(store.countResults('run-1')).toBe(0);
    expect(store.countCachedResponses()).toBe(0);
  });

  it('stops on an unreachable endpoint with a named error and writes nothing', async () => {
    const model = await binding();
    const dead = {
      ...model,
      endpoints: [
        {
          model: new OpenAICompatibleChatModel({ baseURL: 'http://127.0.0.1:9/v1', modelId: 'm' }),
          concurrency: 2,
        },
      ],
    };
    const error = (await go(dead, samples(2)).catch((caught) => caught)) as MedbenchError;
    expect(error.code).toBe('ENDPOINT_UNREACHABLE');
    expect(store.getRun('run-1')).toBeUndefined();
  });

  it('keeps at most `concurrency` requests in flight per endpoint and serves endpoints round-robin', async () => {
    server.fallback = () => ({ kind: 'answer', text: '{"answer": "A"}', delayMs: 30 });
    await go(await binding({ concurrency: 3, endpoints: 2 }), samples(24));
    // Measured by the server: three at once on each endpoint, never more.
    expect(Object.fromEntries(server.peakInFlight)).toEqual({
      '/e0/v1/chat/completions': 3,
      '/e1/v1/chat/completions': 3,
    });
    const byEndpoint = new Map<string, number>();
    for (const request of server.requests)
      byEndpoint.set(request.path, (byEndpoint.get(request.path) ?? 0) + 1);
    expect([...byEndpoint.values()].every((count) => count >= 8)).toBe(true);
  });

  it('two workers share each slot, and the wait for the slot counts in neither the latency nor the time limit', async () => {
    server.fallback = () => ({ kind: 'answer', text: '{"answer": "A"}', delayMs: 120 });
    // One slot: each sample's request takes 120 ms, and the other worker's sample waits that long
    // for the slot; with the wait counted, every second sample would pass 200 ms.
    const summary = await go(await binding({ concurrency: 1 }), samples(6), { sampleTimeoutMs: 200 });
    expect([summary.done, summary.errors]).toEqual([6, 0]);
    expect(server.peakInFlight.get('/e0/v1/chat/completions')).toBe(1);
    const latencies = store.results('run-1').map((result) => result.latencyMs!);
    expect(latencies).toHaveLength(6);
    for (const latency of latencies) expect(latency).toBeLessThan(200);
  });

  it('a prepared sample whose request was answered while it waited for its slot is not sent again', async () => {
    server.fallback = () => ({ kind: 'answer', text: '{"answer": "A"}', delayMs: 20 });
    // Four requests, each ten times: the twin of the one on the wire is prepared meanwhile.
    const repeated = samples(40).map((sample, index) => ({ ...sample, prompt: `Prompt ${index % 4}` }));
    const summary = await go(await binding({ concurrency: 1 }), repeated);
    expect([summary.done, summary.cached, server.requests.length]).toEqual([40, 36, 4]);
  });

  it('sends a request that several samples share once, even with all of them on the wire at once', async () => {
    server.fallback = () => ({ kind: 'answer', text: '{"answer": "A"}', delayMs: 30 });
    // Four requests, each ten times, on eight slots: the twins wait for the one being sent.
    const repeated = samples(40).map((sample, index) => ({ ...sample, prompt: `Prompt ${index % 4}` }));
    const summary = await go(await binding({ concurrency: 8 }), repeated);
    expect([summary.done, summary.cached, server.requests.length]).toEqual([40, 36, 4]);
    // The same with request claims (the CLI's path), in a new run.
    const claims = new RequestClaims(':memory:');
    const again = repeated.map((sample) => ({ ...sample, prompt: `${sample.prompt} again` }));
    const second = await go(await binding({ concurrency: 8 }), again, {
      claims,
      run: { ...run, id: 'run-2' },
    });
    claims.close();
    expect([second.done, second.cached, server.requests.length]).toEqual([40, 36, 8]);
    // A request that fails is tried by its twins in turn (here: each fails).
    server.fallback = () => ({ kind: 'status', status: 400, body: '{"error": "bad"}' });
    const failing = repeated.slice(0, 3).map((sample) => ({ ...sample, prompt: 'Prompt failing' }));
    const third = await go(await binding({ concurrency: 8 }), failing, { run: { ...run, id: 'run-3' } });
    expect([third.done, third.errors, server.requests.length]).toEqual([3, 3, 11]);
  });

  it('a graceful stop keeps finished work, and the next run completes only what is missing', async () => {
    const stop = new AbortController();
    server.fallback = () => ({ kind: 'answer', text: '{"answer": "A"}', delayMs: 5 });
    const first = await go(await binding({ concurrency: 1 }), samples(10), {
      stopSignal: stop.signal,
      onProgress: (progress) => {
        if (progress.done === 4) stop.abort();
      },
    });
    // A sample counts once its result is committed, by which time its slot may have sent the next
    // request: that one finishes and is kept (a graceful stop sends nothing new).
    expect(first.interrupted).toBe(true);
    expect([4, 5]).toContain(first.done);
    const second = await go(await binding({ concurrency: 1 }), samples(10));
    expect([second.alreadyDone, second.done]).toEqual([first.done, 10 - first.done]);
    expect(server.requests).toHaveLength(10);
    expect(store.countResults('run-1')).toBe(10);
  });
});
