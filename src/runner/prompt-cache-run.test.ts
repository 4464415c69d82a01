import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../../test/support/llm-test-server.js';
import { testRun } from '../../test/support/test-run.js';
import type { Sample } from '../core/sample.js';
import { OpenAICompatibleChatModel } from '../providers/openai-compatible/openai-compatible-chat-model.js';
import { Store } from '../store/store.js';
import { niahTask } from '../suites/medodyssey/niah-task.js';
import type { ModelBinding } from './model-binding.js';
import { messagesDigest } from './response-cache-key.js';
import { DEFAULT_RETRY_POLICY } from './retry.js';
import { runSamples } from './run-samples.js';

let server: LlmTestServer;
beforeAll(async () => {
  server = await startLlmTestServer({
    fallback: (request) => {
      const prompt = (request.body.messages as Array<{ content: string }>)[0]!.content;
      return { kind: 'answer', text: `{"answer": "${prompt.includes('NEEDLE') ? 'A' : 'B'}"}` };
    },
  });
});
afterAll(() => server.close());

/** 20,000 characters of lines of 31 (`alpha line 0000 of the record.\n`). */
const haystack = (name: string) =>
  Array.from({ length: 700 }, (_, line) => `${name} line ${String(line).padStart(4, '0')} of the record.\n`)
    .join('')
    .slice(0, 20_000);

/** Two haystacks, three prompts each (needles at 5,000, 10,000 and 15,000 characters), and a short one. */
function samples(): Sample[] {
  const prompts = ['alpha', 'bravo'].flatMap((name) =>
    [5000, 10_000, 15_000].map((depth) => {
      const text = haystack(name);
      return { id: `${name}-${depth}`, prompt: `${text.slice(0, depth)}NEEDLE\n${text.slice(depth)}Q?` };
    }),
  );
  return [...prompts, { id: 'short', prompt: 'A short prompt: Q?' }].map((entry) => ({
    ...entry,
    suite: 'medodyssey',
    task: 'niah',
    params: { language: 'en', level: 4000, depth: 0 },
    promptChars: entry.prompt.length,
    promptTokens: {},
    gold: { answers: ['A'] },
  }));
}

function binding(promptCache: boolean | undefined): ModelBinding {
  return {
    label: 'gpt',
    provider: 'openai-compatible',
    modelId: 'gpt-4o',
    endpoints: [
      {
        model: new OpenAICompatibleChatModel({
          baseURL: `${server.url}/v1`,
          modelId: 'gpt-4o',
          serverExtensions: false,
          promptCacheKey: true,
        }),
        concurrency: 2,
      },
    ],
    contextWindow: undefined,
    tokenizer: undefined,
    prices: undefined,
    instruct: true,
    systemRole: true,
    parameters: { temperature: 0, maxOutputTokens: 20 },
    ...(promptCache === undefined ? {} : { promptCache }),
  };
}

/** A run into a fresh store: the key each sample was sent with, its scores and the response cache keys. */
async function runWith(promptCache: boolean | undefined) {
  const store = new Store(':memory:');
  const before = server.requests.length;
  const run = testRun({ id: 'r' });
  const items = samples();
  await runSamples({
    store,
    run,
    samples: items,
    tasks: { niah: niahTask },
    model: binding(promptCache),
    retry: DEFAULT_RETRY_POLICY,
    timeoutMs: 5000,
  });
  const sent = new Map(
    server.requests.slice(before).map((request) => {
      const prompt = (request.body.messages as Array<{ content: string }>)[0]!.content;
      return [prompt, request.body.prompt_cache_key] as const;
    }),
  );
  const keys = Object.fromEntries(items.map((sample) => [sample.id, sent.get(sample.prompt)]));
  const scores = store.results(run.id).map((result) => [result.sampleId, result.scores]);
  const cacheKeys = store.responseKeys('openai-compatible', 'gpt-4o').sort();
  store.close();
  return { keys, sent: sent.size, scores, cacheKeys };
}

describe('runSamples and the prompt cache hint', () => {
  it('sends each haystack its key, the short prompt none; promptCache false sends none; the scores and cache keys are the same', async () => {
    const hinted = await runWith(undefined);
    expect(hinted.sent).toBe(7);
    // The first needle is at 5,000; the line it falls in starts at 31 × 161 = 4,991.
    const key = (name: string) => messagesDigest([{ role: 'user', content: haystack(name).slice(0, 4991) }]);
    expect(hinted.keys).toEqual({
      'alpha-5000': key('alpha'),
      'alpha-10000': key('alpha'),
      'alpha-15000': key('alpha'),
      'bravo-5000': key('bravo'),
      'bravo-10000': key('bravo'),
      'bravo-15000': key('bravo'),
      short: undefined,
    });
    const plain = await runWith(false);
    expect(plain.sent).toBe(7);
    expect(Object.values(plain.keys).every((sent) => sent === undefined)).toBe(true);
    expect(plain.scores).toEqual(hinted.scores);
    expect(plain.cacheKeys).toEqual(hinted.cacheKeys);
    expect(plain.cacheKeys).toHaveLength(7);
  });
});
