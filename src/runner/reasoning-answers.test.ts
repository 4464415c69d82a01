import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../../test/support/llm-test-server.js';
import { testRun } from '../../test/support/test-run.js';
import type { Sample } from '../core/sample.js';
import { OpenAICompatibleChatModel } from '../providers/openai-compatible/openai-compatible-chat-model.js';
import { Store } from '../store/store.js';
import { createClueTasks } from '../suites/clue/clue-tasks.js';
import { CLUE_PROTOCOL } from '../suites/clue/protocols.js';
import { niahTask } from '../suites/medodyssey/niah-task.js';
import { getTokenizer } from '../tokenizers/registry.js';
import type { ModelBinding } from './model-binding.js';
import { DEFAULT_RETRY_POLICY } from './retry.js';
import { runSamples } from './run-samples.js';

// An open reasoning model behind an OpenAI-compatible server without a reasoning parser writes
// its thinking into the answer: <think>…</think>, then the answer. The thinking names wrong
// answers on purpose: scored with it, each sample below would score otherwise.
let server: LlmTestServer;
let store: Store;
beforeEach(async () => {
  server = await startLlmTestServer();
  store = new Store(':memory:');
});
afterEach(async () => {
  store.close();
  await server.close();
});

async function binding(): Promise<ModelBinding> {
  return {
    label: 'r1',
    provider: 'openai-compatible',
    modelId: 'deepseek-r1',
    endpoints: [
      {
        model: new OpenAICompatibleChatModel({ baseURL: `${server.url}/v1`, modelId: 'deepseek-r1' }),
        concurrency: 2,
      },
    ],
    contextWindow: undefined,
    tokenizer: await getTokenizer('o200k_base'),
    prices: { inputPerMillion: 1, outputPerMillion: 4, cachedInputPerMillion: 0.25 },
    instruct: true,
    systemRole: true,
    parameters: { temperature: 0, maxOutputTokens: 2000 },
  };
}

/** One sample per answer the server gives, in order; the prompts are the run's own (no cache hits across runs). */
async function answer(options: {
  runId: string;
  suite: string;
  task: string;
  outputs: string[];
  /** Prompts start with this (default: the run id). */
  prompts?: string;
  sample: Omit<Sample, 'id' | 'prompt' | 'promptChars' | 'promptTokens'>;
}) {
  const prompts = options.prompts ?? options.runId;
  const byPrompt = new Map(options.outputs.map((output, index) => [`${prompts} ${index}`, output]));
  server.fallback = (request) => {
    const prompt = (request.body.messages as Array<{ content: string }>)[0]!.content;
    return { kind: 'answer', text: byPrompt.get(prompt)! };
  };
  const samples = options.outputs.map(
    (_, index): Sample => ({
      ...options.sample,
      id: `s${index}`,
      prompt: `${prompts} ${index}`,
      promptChars: 8,
      promptTokens: {},
    }),
  );
  const tasks = {
    niah: niahTask,
    ...createClueTasks({}, { protocol: CLUE_PROTOCOL['repo-2025'], modelId: 'deepseek-r1' }),
  };
  await runSamples({
    store,
    run: testRun({ id: options.runId, suite: options.suite, label: 'r1' }),
    samples,
    tasks,
    model: await binding(),
    retry: DEFAULT_RETRY_POLICY,
    timeoutMs: 5000,
  });
  return store.results(options.runId);
}

describe('a think block in the output is not the answer', () => {
  it('NIAH (MedOdyssey): the block is removed before scoring; an unclosed one scores as an empty answer', async () => {
    const results = await answer({
      runId: 'niah',
      suite: 'medodyssey',
      task: 'niah',
      outputs: [
        '<think>\nIs it {"answer": "Paris"}? No, the needle says Shuweng.\n</think>\n\n{"answer": "Shuweng"}',
        // The chat template opened the block in the prompt: only its end is in the output.
        'The needle… {"answer": "Paris"}?\n</think>\n{"answer": "Shuweng"}',
        '<think>\nThe needle says {"answer": "Shuweng"}; let me check the rest of the',
      ],
      sample: {
        suite: 'medodyssey',
        task: 'niah',
        params: { language: 'en', level: 4000, depth: 0 },
        gold: { answers: ['Shuweng'] },
      },
    });
    expect(results.map((result) => [result.status, result.scores.esm])).toEqual([
      ['ok', 1],
      ['ok', 1],
      ['bad_format', 0],
    ]);
    // What the model returned is stored as it came.
    expect(results[0]!.rawOutput).toContain('<think>');
  });

  it('CLUE (LongHealth and MedNLI): scored on the answer after the block; an unclosed block is no answer', async () => {
    const longhealth = await answer({
      runId: 'longhealth',
      suite: 'clue',
      task: 'longhealth',
      outputs: [
        '<think>The correct answer is B: no, the report says otherwise.</think>The correct answer is A: aspirin',
        '<think>The correct answer is A: aspirin, I think',
      ],
      sample: { suite: 'clue', task: 'longhealth', params: { subtask: 1 }, gold: { choice: 'A' } },
    });
    expect(longhealth.map((result) => [result.status, result.scores.accuracy])).toEqual([
      ['ok', 1],
      ['bad_format', 0],
    ]);
    const mednli = await answer({
      runId: 'mednli',
      suite: 'clue',
      task: 'mednli',
      outputs: ['<think>Entailment or contradiction? Not entailment.</think>\n\ncontradiction'],
      sample: { suite: 'clue', task: 'mednli', params: {}, gold: { label: 'contradiction' } },
    });
    expect(mednli[0]!.scores.accuracy).toBe(1);
  });
});

/** One NIAH sample whose prompt is "same 0", asked in each run: a second run is answered by the cache. */
const asked = {
  suite: 'medodyssey',
  task: 'niah',
  outputs: ['unused'],
  prompts: 'same',
  sample: {
    suite: 'medodyssey',
    task: 'niah',
    params: { language: 'en', level: 4000, depth: 0 },
    gold: { answers: ['Shuweng'] },
  },
};

describe('reasoning tokens', () => {
  it('are stored apart from the answer, billed as output, and kept by the response cache', async () => {
    server.script.push({
      kind: 'answer',
      text: '{"answer": "Shuweng"}',
      reasoning: 'Hmm.',
      reasoningTokens: 300,
    });
    const [first] = await answer({ runId: 'a', ...asked });
    // 6 answer tokens and 300 reasoning tokens, all billed at the output price.
    expect([first!.outputTokens, first!.reasoningTokens]).toEqual([306, 300]);
    expect(first!.cost).toBeCloseTo((first!.inputTokens! * 1 + 306 * 4) / 1e6, 12);
    expect(first!.scores.esm).toBe(1);
    const [again] = await answer({ runId: 'b', ...asked });
    expect([again!.cacheHit, again!.reasoningTokens]).toEqual([true, 300]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('prompt-cache tokens', () => {
  it('are stored with the answer, priced at the cached price beside the list price, and kept by the response cache', async () => {
    // The server counts the prompt "same 0" as 2 tokens and reports both as read from its cache.
    server.script.push({ kind: 'answer', text: '{"answer": "Shuweng"}', cachedTokens: 2 });
    const [first] = await answer({ runId: 'a', ...asked });
    expect([first!.inputTokens, first!.cachedInputTokens, first!.cacheWriteTokens]).toEqual([2, 2, null]);
    // Paid: 2 cached × 0.25 + 6 out × 4; list: 2 × 1 + 6 × 4.
    expect(first!.cost).toBeCloseTo((2 * 0.25 + 6 * 4) / 1e6, 12);
    expect(first!.listCost).toBeCloseTo((2 * 1 + 6 * 4) / 1e6, 12);
    // From the response cache: the usage it was stored with, nothing paid this time.
    const [again] = await answer({ runId: 'b', ...asked });
    expect(again).toMatchObject({
      cacheHit: true,
      inputTokens: 2,
      cachedInputTokens: 2,
      cost: 0,
      listCost: 0,
    });
    expect(server.requests).toHaveLength(1);
  });
});
