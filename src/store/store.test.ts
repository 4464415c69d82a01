import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/temporary-folder.js';
import { MIGRATIONS } from './migrations.js';
import { type ResultRecord, type RunRecord, Store } from './store.js';

function temporaryStorePath(): string {
  return join(temporaryFolder('medbench-store-'), 'nested', 'medbench.sqlite');
}

const run: RunRecord = {
  id: 'r1',
  suite: 'medodyssey',
  label: 'model',
  datasetId: 'd',
  datasetPath: '/data/x.jsonl',
  model: { provider: 'p', modelId: 'm' },
  parameters: { temperature: 0 },
  source: 'medbench',
  scoringMode: 'standard',
  createdAt: '2026-01-01T00:00:00.000Z',
};

function result(sampleId: string, extra: Partial<ResultRecord> = {}): ResultRecord {
  return {
    runId: 'r1',
    sampleId,
    task: 'niah',
    params: { language: 'zh', level: 4000 },
    gold: { answers: ['阿哈'] },
    prompt: `长提示 ${'内容'.repeat(1000)}`,
    promptChars: 2004,
    promptTokens: 1500,
    status: 'ok',
    rawOutput: '{"答案": "阿哈"}',
    parsed: '阿哈',
    scores: { esm: 1, ssm: 1 },
    inputTokens: 1500,
    outputTokens: 8,
    cost: 0.001,
    latencyMs: 120,
    attempts: 1,
    cacheHit: false,
    error: null,
    ...extra,
  };
}

/**
 * A store made at schema `version` holding one cached response, opened (migrated) by this
 * medbench: the response reads as before, with none of the later columns.
 */
function migratedStore(version: number): Store {
  const path = join(temporaryFolder('medbench-store-'), 'medbench.sqlite');
  const old = new Database(path);
  for (const migration of MIGRATIONS.slice(0, version)) old.exec(migration);
  old.pragma(`user_version = ${version}`);
  old
    .prepare(
      "INSERT INTO responses (cache_key, provider, model_id, text, input_tokens, output_tokens, finish_reason, created_at) VALUES ('old', 'p', 'm', 'hi', 3, 1, 'stop', 'x')",
    )
    .run();
  old.close();
  const store = new Store(path);
  expect(store.getCachedResponse('old')).toEqual({
    text: 'hi',
    inputTokens: 3,
    outputTokens: 1,
    finishReason: 'stop',
  });
  return store;
}

describe('Store', () => {
  it('creates its folder, migrates once and survives reopening', () => {
    const path = temporaryStorePath();
    const first = new Store(path);
    first.ensureRun(run);
    first.putResult(result('a'));
    first.close();
    const second = new Store(path);
    expect(second.getRun('r1')).toEqual(run);
    expect(second.results('r1')).toHaveLength(1);
    second.close();
    const raw = new Database(path);
    expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    raw.close();
  });

  it('round-trips results, with prompts stored once and compressed', () => {
    const store = new Store(temporaryStorePath());
    store.ensureRun(run);
    store.putResult(result('a'));
    store.putResult(result('b'));
    const [first, second] = store.results('r1');
    expect(first).toMatchObject({
      sampleId: 'a',
      parsed: '阿哈',
      scores: { esm: 1, ssm: 1 },
      cacheHit: false,
    });
    expect(first!.promptHash).toBe(second!.promptHash);
    expect(store.getPrompt(first!.promptHash!)).toBe(result('a').prompt);
    store.close();
  });

  it('replaces a sample result and treats only errors as unfinished', () => {
    const store = new Store(temporaryStorePath());
    store.ensureRun(run);
    store.putResult(result('a', { status: 'error', scores: { esm: 0, ssm: 0 }, rawOutput: null }));
    store.putResult(result('b', { status: 'too_long', rawOutput: null }));
    store.putResult(result('c', { status: 'bad_format' }));
    expect([...store.finishedSampleIds('r1')].sort()).toEqual(['b', 'c']);
    store.putResult(result('a'));
    expect(store.countResults('r1')).toBe(3);
    expect([...store.finishedSampleIds('r1')].sort()).toEqual(['a', 'b', 'c']);
    store.close();
  });

  it('keeps the first description of a run when it is ensured again', () => {
    const store = new Store(temporaryStorePath());
    store.ensureRun(run);
    store.ensureRun({ ...run, label: 'changed' });
    expect(store.getRun('r1')!.label).toBe('model');
    expect(store.listRuns({ suite: 'medodyssey' })).toHaveLength(1);
    expect(store.listRuns({ suite: 'clue' })).toHaveLength(0);
    store.close();
  });

  it('caches responses by key', () => {
    const store = new Store(temporaryStorePath());
    expect(store.getCachedResponse('k')).toBeUndefined();
    const response = { text: 'hi', inputTokens: 3, outputTokens: 1, finishReason: 'stop' };
    store.putCachedResponse({ cacheKey: 'k', provider: 'p', modelId: 'm', response });
    expect(store.getCachedResponse('k')).toEqual(response);
    store.close();
  });

  it('keeps reasoning tokens in the cache; a store made before they existed is migrated and reads as before', () => {
    const store = migratedStore(4);
    const thought = {
      text: 'A',
      inputTokens: 3,
      outputTokens: 301,
      reasoningTokens: 300,
      finishReason: 'stop',
    };
    store.putCachedResponse({ cacheKey: 'new', provider: 'p', modelId: 'm', response: thought });
    expect(store.getCachedResponse('new')).toEqual(thought);
    store.close();
  });

  it('keeps cached and cache-written tokens and the list cost; a store of schema 6 is migrated, its rows reading none', () => {
    const store = migratedStore(6);
    const cached = {
      text: 'A',
      inputTokens: 1000,
      outputTokens: 2,
      cachedInputTokens: 600,
      cacheWriteTokens: 300,
      finishReason: 'stop',
    };
    store.putCachedResponse({ cacheKey: 'new', provider: 'p', modelId: 'm', response: cached });
    expect(store.getCachedResponse('new')).toEqual(cached);
    store.ensureRun(run);
    store.putResult(result('a'));
    store.putResult(result('b', { cachedInputTokens: 600, cacheWriteTokens: 300, listCost: 0.002 }));
    const [plain, priced] = store.results('r1');
    expect(plain).toMatchObject({ cachedInputTokens: null, cacheWriteTokens: null, listCost: null });
    expect(priced).toMatchObject({
      cachedInputTokens: 600,
      cacheWriteTokens: 300,
      cost: 0.001,
      listCost: 0.002,
    });
    store.close();
  });

  it('refuses a result for an unknown run', () => {
    const store = new Store(temporaryStorePath());
    expect(() => store.putResult(result('a'))).toThrow(/FOREIGN KEY/);
    store.close();
  });
});
