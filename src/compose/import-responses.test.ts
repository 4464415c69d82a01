import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../store/store.js';
import { storePathIn } from './home.js';
import { importResponses } from './import-responses.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A home whose store recorded the export of requests `a`…`e` (no tokenizer count for `e`). */
function exportedHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'medbench-import-'));
  folders.push(home);
  const store = new Store(storePathIn(home));
  store.exportedRequests.record(
    ['a', 'b', 'c', 'd', 'e'].map((key) => ({
      cacheKey: key,
      provider: 'openai-compatible',
      modelId: 'm',
      url: '/v1/chat/completions',
      promptTokens: key === 'e' ? null : 42,
      runId: 'run',
    })),
  );
  store.close();
  return home;
}

const completion = (content: string, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content, ...extra }, finish_reason: 'stop' }],
});

describe('importResponses: the output lines of the engines that answer OpenAI batch files', () => {
  it("takes each engine's answers with their usage, and lists failed lines without caching them", () => {
    const home = exportedHome();
    const file = join(home, 'results.jsonl');
    const lines = [
      // OpenAI's Batch API: a 200 with usage, reasoning tokens detailed apart.
      {
        id: 'batch_req_1',
        custom_id: 'a',
        response: {
          status_code: 200,
          request_id: 'req_1',
          body: {
            ...completion('{"answer": "a"}'),
            usage: {
              prompt_tokens: 40,
              completion_tokens: 9,
              total_tokens: 49,
              completion_tokens_details: { reasoning_tokens: 3 },
            },
          },
        },
        error: null,
      },
      // vLLM run-batch with a reasoning parser: the thinking apart, not part of the answer.
      {
        id: 'vllm-1',
        custom_id: 'b',
        response: {
          status_code: 200,
          request_id: 'vllm-batch-1',
          body: {
            ...completion('{"answer": "b"}', { reasoning_content: 'thinking…' }),
            usage: { prompt_tokens: 41, completion_tokens: 12, total_tokens: 53 },
          },
        },
        error: null,
      },
      // Ray Data LLM as docs/engine-hand-off.md writes it: no id, no finish reason; and no usage.
      {
        custom_id: 'e',
        response: { status_code: 200, body: { choices: [{ message: { content: 'e' } }] } },
        error: null,
      },
      // vLLM's failed request: a status and a message, no body.
      {
        id: 'vllm-2',
        custom_id: 'c',
        response: { status_code: 400, request_id: 'x', body: null },
        error: 'too long',
      },
      // OpenAI's error file: no response, an error object.
      {
        id: 'batch_req_2',
        custom_id: 'd',
        response: null,
        error: { code: 'server_error', message: 'overloaded' },
      },
    ];
    writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));

    const summary = importResponses({ file, home });
    expect(summary).toEqual({
      lines: 5,
      imported: 3,
      alreadyCached: 0,
      failed: [
        { line: 4, customId: 'c', reason: '400: too long' },
        { line: 5, customId: 'd', reason: 'no status: overloaded' },
      ],
    });
    const store = new Store(storePathIn(home));
    try {
      expect(store.getCachedResponse('a')).toEqual({
        text: '{"answer": "a"}',
        inputTokens: 40,
        outputTokens: 9,
        reasoningTokens: 3,
        finishReason: 'stop',
      });
      expect(store.getCachedResponse('b')).toEqual({
        text: '{"answer": "b"}',
        inputTokens: 41,
        outputTokens: 12,
        finishReason: 'stop',
      });
      // Without usage: the prompt's tokens as the export counted them (none here), no output count.
      expect(store.getCachedResponse('e')).toEqual({
        text: 'e',
        inputTokens: null,
        outputTokens: null,
        finishReason: null,
      });
      expect(store.getCachedResponse('c')).toBeUndefined();
      expect(store.getCachedResponse('d')).toBeUndefined();
      // Under the model of each request: a run of that model reads them.
      expect(store.responseKeys('openai-compatible', 'm').sort()).toEqual(['a', 'b', 'e']);
    } finally {
      store.close();
    }
  });

  it('refuses a custom_id answered twice, storing nothing', () => {
    const home = exportedHome();
    const file = join(home, 'twice.jsonl');
    const line = JSON.stringify({ custom_id: 'a', response: { status_code: 200, body: completion('x') } });
    writeFileSync(file, `${line}\n${line}\n`);
    expect(() => importResponses({ file, home })).toThrow(
      `${file}:2: custom_id a is answered twice (lines 1 and 2).`,
    );
    const store = new Store(storePathIn(home));
    expect(store.countCachedResponses()).toBe(0);
    store.close();
  });
});
