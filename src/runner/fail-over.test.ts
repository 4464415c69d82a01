import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../../test/support/llm-test-server.js';
import { testRun } from '../../test/support/test-run.js';
import type { ChatModel } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { Sample } from '../core/sample.js';
import { OpenAICompatibleChatModel } from '../providers/openai-compatible/openai-compatible-chat-model.js';
import { Store } from '../store/store.js';
import { niahTask } from '../suites/medodyssey/niah-task.js';
import { EndpointHealth } from './endpoint-health.js';
import type { ModelBinding } from './model-binding.js';
import { DEFAULT_RETRY_POLICY } from './retry.js';
import { runSamples } from './run-samples.js';

let servers: LlmTestServer[];
let store: Store;
beforeEach(async () => {
  servers = [await startLlmTestServer(), await startLlmTestServer()];
  store = new Store(':memory:');
});
afterEach(async () => {
  store.close();
  await Promise.all(servers.map((server) => server.close()));
});

const samples: Sample[] = Array.from({ length: 24 }, (_, index) => ({
  id: `s${String(index).padStart(3, '0')}`,
  suite: 'medodyssey',
  task: 'niah',
  params: { language: 'en', level: 4000, depth: 0 },
  prompt: `Prompt ${index}`,
  promptChars: 10,
  promptTokens: {},
  gold: { answers: ['ok'] },
}));

const run: RunRecord = testRun({ id: 'run-fail-over' });

function binding(urls: string[]): ModelBinding {
  return {
    label: 'm',
    provider: 'openai-compatible',
    modelId: 'm',
    endpoints: urls.map((url) => ({
      model: new OpenAICompatibleChatModel({ baseURL: `${url}/v1`, modelId: 'm' }),
      concurrency: 3,
    })),
    contextWindow: undefined,
    tokenizer: undefined,
    prices: undefined,
    instruct: true,
    systemRole: true,
    parameters: { temperature: 0, maxOutputTokens: 16 },
  };
}

const retry = { ...DEFAULT_RETRY_POLICY, maxRetries: 2, baseDelayMs: 5, maxDelayMs: 10, unreachableMs: 600 };

/** Runs the samples on the endpoints at `urls`; those that begin to rest are pushed to `downs`. */
function runOn(urls: string[], downs: string[] = []) {
  return runSamples({
    store,
    run,
    samples,
    tasks: { niah: niahTask },
    model: binding(urls),
    retry,
    timeoutMs: 5000,
    onEndpointDown: ({ endpoint }) => downs.push(endpoint),
  });
}

describe('several endpoints: health and fail-over', () => {
  it('an endpoint that stops answering mid-run rests; the others answer its samples, none twice, none as an error', async () => {
    const [good, failing] = servers as [LlmTestServer, LlmTestServer];
    const downs: string[] = [];
    // The second endpoint answers a few, then refuses the key (as a rotated key would).
    let answered = 0;
    failing.fallback = () =>
      answered++ < 3
        ? { kind: 'answer', text: '{"answer": "ok"}', delayMs: 5 }
        : { kind: 'status', status: 401 };
    good.fallback = () => ({ kind: 'answer', text: '{"answer": "ok"}', delayMs: 5 });
    const summary = await runOn([good.url, failing.url], downs);
    expect([summary.done, summary.errors]).toEqual([24, 0]);
    const results = store.results(run.id);
    expect(results).toHaveLength(24);
    expect(results.every((result) => result.status === 'ok')).toBe(true);
    expect(downs).toEqual([`${failing.url}/v1`]);
    // Every sample answered once: the good server answered all but those the failing one did.
    const answeredPrompts = [...good.requests, ...failing.requests.slice(0, 3)].map((request) =>
      JSON.stringify(request.body.messages),
    );
    expect(new Set(answeredPrompts).size).toBe(24);
    expect(good.requests).toHaveLength(21);
    // A sample's attempts are every request the two servers saw for it, the refused one included.
    const sentFor = (sampleId: string) => {
      const prompt = samples.find((sample) => sample.id === sampleId)!.prompt;
      return [...good.requests, ...failing.requests].filter((request) =>
        JSON.stringify(request.body.messages).includes(`"${prompt}"`),
      ).length;
    };
    expect(results.filter((result) => sentFor(result.sampleId) > 1).length).toBeGreaterThan(0);
    for (const result of results)
      expect([result.sampleId, result.attempts]).toEqual([result.sampleId, sentFor(result.sampleId)]);
    // Resting, it is sent nothing more: its three answers, and at most one refused request per
    // slot (those on the wire when it began to refuse), none of the samples prepared meanwhile.
    expect(failing.requests.length).toBeLessThanOrEqual(6);
  });

  it.each([
    ['503', { kind: 'status', status: 503 }],
    ['a reset connection', { kind: 'reset' }],
  ] as const)(
    'an endpoint that answers every request with %s rests; the others answer its samples',
    async (_, broken) => {
      const [good, failing] = servers as [LlmTestServer, LlmTestServer];
      const downs: string[] = [];
      failing.fallback = () => broken;
      good.fallback = () => ({ kind: 'answer', text: '{"answer": "ok"}', delayMs: 5 });
      const summary = await runOn([failing.url, good.url], downs);
      expect([summary.done, summary.errors]).toEqual([24, 0]);
      expect(downs).toEqual([`${failing.url}/v1`]);
      const results = store.results(run.id);
      expect(results.every((result) => result.status === 'ok')).toBe(true);
      expect(good.requests).toHaveLength(24);
      // Each slot's sample spent its retries there (3 attempts), then rested: nothing more is sent.
      expect(failing.requests.length).toBeLessThanOrEqual(3 * 3);
      const moved = results.filter((result) => (result.attempts ?? 0) > 1);
      expect(moved.length).toBeGreaterThan(0);
      expect(moved.reduce((sum, result) => sum + (result.attempts ?? 0) - 1, 0)).toBe(
        failing.requests.length,
      );
    },
  );

  it("a sample that fails on an endpoint whose other requests are answered is that sample's error; nothing rests", async () => {
    const downs: string[] = [];
    for (const server of servers)
      server.fallback = (request) =>
        JSON.stringify(request.body.messages).includes('"Prompt 5"')
          ? { kind: 'status', status: 500 }
          : { kind: 'answer', text: '{"answer": "ok"}', delayMs: 5 };
    const summary = await runOn(
      servers.map((server) => server.url),
      downs,
    );
    expect([summary.done, summary.errors, downs]).toEqual([24, 1, []]);
    const failed = store.results(run.id).filter((result) => result.status === 'error');
    expect(failed.map((result) => [result.sampleId, result.attempts])).toEqual([['s005', 3]]);
  });

  it('an unreachable endpoint from the start: the run goes on with the other', async () => {
    const [good] = servers as [LlmTestServer];
    const closed = servers[1]!;
    const deadURL = closed.url;
    await closed.close();
    const summary = await runOn([deadURL, good.url]);
    expect([summary.done, summary.errors]).toEqual([24, 0]);
    expect(good.requests).toHaveLength(24);
  });

  it('when every endpoint is down the run stops with the error, as with one endpoint', async () => {
    for (const server of servers) server.fallback = () => ({ kind: 'status', status: 401 });
    const error = await runOn(servers.map((server) => server.url)).catch((caught: unknown) => caught);
    expect(MedbenchError.is(error) && error.code).toBe('ENDPOINT_AUTH');
    expect(store.results(run.id)).toHaveLength(0);
  });
});

describe('EndpointHealth', () => {
  it('rests an endpoint 30 s, doubling to 5 min, resets on an answer after its rest, and never rests the last one', () => {
    let now = 0;
    const [a, b] = [{ endpoint: 'a' }, { endpoint: 'b' }] as unknown as ChatModel[];
    const health = new EndpointHealth([a!, b!], () => now);
    const error = new MedbenchError({ code: 'ENDPOINT_UNREACHABLE', message: 'down' });
    expect(health.markDown(a!, error)).toEqual({ restMs: 30_000, began: true });
    expect(health.restLeft(a!)).toBe(30_000);
    expect(health.markDown(a!, error)).toEqual({ restMs: 30_000, began: false });
    // b is the only one left: it cannot rest.
    expect(health.markDown(b!, error)).toBeUndefined();
    now = 30_000;
    expect(health.restLeft(a!)).toBe(0);
    expect(health.markDown(a!, error)).toEqual({ restMs: 60_000, began: true });
    now = 90_000;
    health.markUp(a!);
    expect(health.markDown(a!, error)).toEqual({ restMs: 30_000, began: true });
    for (let time = 0; time < 6; time++) {
      now += 400_000;
      health.markDown(a!, error);
    }
    expect(health.restLeft(a!)).toBe(300_000);
  });
});
