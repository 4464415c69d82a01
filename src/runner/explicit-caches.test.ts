import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type InterceptingProxy, startInterceptingProxy } from '../../test/support/intercepting-proxy.js';
import { type GeminiPlatform, startGeminiPlatform } from '../../test/support/platform/gemini-platform.js';
import { ManualClock } from '../../test/support/platform/platform-basics.js';
import { temporaryFolder } from '../../test/support/temporary-folder.js';
import type { ChatMessage } from '../core/chat-model.js';
import type { Sample } from '../core/sample.js';
import { GeminiChatModel } from '../providers/gemini/gemini-chat-model.js';
import { Store } from '../store/store.js';
import { ExplicitCaches } from './explicit-caches.js';
import type { ModelBinding } from './model-binding.js';
import { messagesDigest } from './response-cache-key.js';

let platform: GeminiPlatform;
let proxy: InterceptingProxy;
let store: Store;
/** The cache calls that reached the platform: create (POST), extend (PATCH), delete (DELETE). */
const calls: string[] = [];
// The platform's clock runs 100 s behind this machine's: a cache made for 120 s has 20 s left here.
const clock = new ManualClock(Date.now() - 100_000);

beforeAll(async () => {
  platform = await startGeminiPlatform({ clock, minimumCachingTokens: () => 100 });
  proxy = await startInterceptingProxy(
    () => platform.url,
    (method, path) => {
      if (path.includes('cachedContents')) calls.push(method);
      return 'forward';
    },
    () => {},
  );
});
afterAll(async () => {
  await proxy.close();
  await platform.close();
});
afterEach(() => {
  store.close();
  calls.length = 0;
});

const SHOTS: ChatMessage[] = [
  { role: 'system', content: 'You label sentence pairs.' },
  { role: 'user', content: `A long shot: ${'stable, afebrile. '.repeat(600)}` },
  { role: 'assistant', content: 'ENTAILMENT' },
];

function sample(index: number, shots = SHOTS): Sample {
  const messages = [...shots, { role: 'user' as const, content: `Premise ${index}.` }];
  return {
    id: `s${index}`,
    suite: 'clue',
    task: 'mednli',
    params: {},
    prompt: messages.map((message) => message.content).join('\n'),
    messages,
    promptChars: 0,
    promptTokens: {},
    gold: {},
  };
}

function binding(endpoint: GeminiChatModel): ModelBinding {
  return {
    label: 'gemini',
    provider: 'gemini',
    modelId: 'gemini-2.0-flash',
    endpoints: [{ model: endpoint, concurrency: 4 }],
    contextWindow: undefined,
    tokenizer: undefined,
    prices: {
      inputPerMillion: 0.1,
      outputPerMillion: 0.4,
      cachedInputPerMillion: 0.025,
      cacheStoragePerMillionPerHour: 1,
    },
    instruct: true,
    systemRole: true,
    parameters: { temperature: 0, maxOutputTokens: 16 },
  };
}

function caches(samples: readonly Sample[]) {
  store = new Store(join(temporaryFolder('medbench-explicit-caches-'), 'medbench.sqlite'));
  const endpoint = new GeminiChatModel({
    modelId: 'gemini-2.0-flash',
    apiKey: 'test-key',
    baseURL: proxy.url,
  });
  const planned = ExplicitCaches.plan({
    samples,
    model: binding(endpoint),
    records: store.explicitCaches,
    runId: 'run-1',
    signal: new AbortController().signal,
  });
  return { planned, endpoint };
}

describe('ExplicitCaches: a run’s Gemini explicit caches', () => {
  it('one cache for the group, made once for requests waiting together, extended near its end, deleted after the last', async () => {
    const samples = Array.from({ length: 6 }, (_, index) => sample(index));
    const { planned, endpoint } = caches(samples);
    expect(planned).toBeDefined();
    await planned!.start();
    const first = await Promise.all(samples.slice(0, 3).map((item) => planned!.use(endpoint, item)));
    expect(calls).toEqual(['POST']);
    expect(new Set(first.map((held) => held?.name)).size).toBe(1);
    expect(first[0]).toMatchObject({ messages: 3 });
    expect(
      store.explicitCaches.of({
        provider: 'gemini',
        modelId: 'gemini-2.0-flash',
        endpoint: endpoint.endpoint,
      }),
    ).toHaveLength(1);
    // It was made for 120 s and has 20 s left here (under the 30 s margin): a new lifetime first.
    await planned!.use(endpoint, samples[3]!);
    expect(calls).toEqual(['POST', 'PATCH']);
    for (const item of samples) planned!.finished(item);
    await planned!.close();
    expect(calls).toEqual(['POST', 'PATCH', 'DELETE']);
    // Made at $0.10 per million tokens, stored a moment at $1.00 per million an hour.
    const { made, tokens, cost } = planned!.spent;
    expect({ made, tokens }).toEqual({
      made: 1,
      tokens: [...platform.explicitCaches.values()].at(-1)!.tokens,
    });
    expect(cost).toBeGreaterThanOrEqual((tokens * 0.1) / 1e6);
    expect(cost).toBeLessThan((tokens * 0.1) / 1e6 + (tokens * 1) / 1e6 / 60);
    expect([...platform.explicitCaches.values()].at(-1)!.deleted).toBe(true);
    expect(
      store.explicitCaches.of({
        provider: 'gemini',
        modelId: 'gemini-2.0-flash',
        endpoint: endpoint.endpoint,
      }),
    ).toEqual([]);
    // Its group done, a sample left over goes whole.
    expect(await planned!.use(endpoint, samples[5]!)).toBeUndefined();
  });

  it('a killed run’s caches: the one this run needs taken over, another deleted', async () => {
    const samples = Array.from({ length: 6 }, (_, index) => sample(index));
    const { planned, endpoint } = caches(samples);
    const owner = { provider: 'gemini', modelId: 'gemini-2.0-flash', endpoint: endpoint.endpoint };
    const api = endpoint.explicitCache!;
    const needed = (await api.create(SHOTS, { ttlSeconds: 600 }))!;
    const other = (await api.create([{ role: 'system', content: 'x'.repeat(2000) }], { ttlSeconds: 600 }))!;
    const record = { ...owner, tokens: 1, expiresAt: '', runId: 'killed', createdAt: '' };
    store.explicitCaches.add({ ...record, name: needed.name, prefixDigest: messagesDigest(SHOTS) });
    store.explicitCaches.add({ ...record, name: other.name, prefixDigest: 'no group of this run' });
    calls.length = 0;
    await planned!.start();
    expect(calls).toEqual(['DELETE']);
    expect(platform.explicitCaches.get(other.name)!.deleted).toBe(true);
    // Taken over: extended at its first use (its expiry unknown), never made again.
    expect(await planned!.use(endpoint, samples[0]!)).toEqual({ name: needed.name, messages: 3 });
    expect(calls).toEqual(['DELETE', 'PATCH']);
    await planned!.close();
    expect(platform.explicitCaches.get(needed.name)!.deleted).toBe(true);
    expect(store.explicitCaches.of(owner)).toEqual([]);
  });

  it('no plan for one request alone, nor for a model without a storage price', () => {
    const lone = caches([sample(0)]);
    expect(lone.planned).toBeUndefined();
    store.close();
    store = new Store(join(temporaryFolder('medbench-explicit-caches-'), 'medbench.sqlite'));
    const endpoint = new GeminiChatModel({
      modelId: 'gemini-2.0-flash',
      apiKey: 'test-key',
      baseURL: proxy.url,
    });
    const unpriced = {
      ...binding(endpoint),
      prices: { inputPerMillion: 0.1, outputPerMillion: 0.4, cachedInputPerMillion: 0.025 },
    };
    const samples = Array.from({ length: 6 }, (_, index) => sample(index));
    expect(
      ExplicitCaches.plan({
        samples,
        model: unpriced,
        records: store.explicitCaches,
        runId: 'run-1',
        signal: new AbortController().signal,
      }),
    ).toBeUndefined();
  });
});
