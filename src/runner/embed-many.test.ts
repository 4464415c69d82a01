import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type EmbeddingTestServer,
  startEmbeddingTestServer,
} from '../../test/support/embedding-test-server.js';
import { MedbenchError } from '../core/errors.js';
import { OpenAICompatibleEmbeddingModel } from '../providers/openai-compatible/openai-compatible-embedding-model.js';
import { EmbeddingCache } from '../store/embedding-cache.js';
import { embeddingModelKey, embedMany } from './embed-many.js';
import { DEFAULT_RETRY_POLICY } from './retry.js';

const FAST_RETRY = { ...DEFAULT_RETRY_POLICY, maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 };

describe('embedMany', () => {
  let server: EmbeddingTestServer | undefined;
  let cache: EmbeddingCache | undefined;
  afterEach(async () => {
    await server?.close();
    cache?.close();
    server = undefined;
    cache = undefined;
  });

  function setup(
    options: { dimensions?: number; batchSize?: number; maxParallelCalls?: number; delayMs?: number } = {},
  ) {
    return startEmbeddingTestServer({
      dimensions: 6,
      maxBatch: 4,
      ...(options.delayMs ? { delayMs: options.delayMs } : {}),
    }).then((started) => {
      server = started;
      cache = new EmbeddingCache(join(mkdtempSync(join(tmpdir(), 'embeddings-')), 'embeddings.sqlite'));
      const model = new OpenAICompatibleEmbeddingModel({
        baseURL: started.url,
        modelId: 'm',
        batchSize: options.batchSize ?? 4,
        maxParallelCalls: options.maxParallelCalls ?? 2,
        ...(options.dimensions ? { dimensions: options.dimensions } : {}),
      });
      return model;
    });
  }

  const texts = Array.from({ length: 18 }, (_, index) => `text ${index % 15} word${index}`);

  it('batches by the declared size, limits parallel calls, dedupes, normalises', async () => {
    const model = await setup({ delayMs: 20 });
    const result = await embedMany({ model, texts: [...texts, texts[0]!], cache: cache! });
    expect(server!.requests.every((request) => request.body.input!.length <= 4)).toBe(true);
    expect(server!.requests.flatMap((request) => request.body.input)).toHaveLength(18);
    expect(server!.peakInFlight).toBe(2);
    expect(result).toMatchObject({ dimensions: 6, embedded: 18, cached: 0 });
    expect(result.vectors).toHaveLength(19 * 6);
    const row = (index: number) => [...result.vectors.subarray(index * 6, index * 6 + 6)];
    expect(Math.hypot(...row(3))).toBeCloseTo(1, 6);
    expect(row(18)).toEqual(row(0));
  });

  it('re-embeds nothing on a second run: every vector comes from the cache', async () => {
    const model = await setup();
    const first = await embedMany({ model, texts, cache: cache! });
    const before = server!.requests.length;
    const second = await embedMany({ model, texts, cache: cache! });
    expect(server!.requests.length).toBe(before);
    expect(second).toMatchObject({ embedded: 0, cached: 18 });
    expect([...second.vectors]).toEqual([...first.vectors]);
    expect(cache!.count(embeddingModelKey(model))).toBe(18);
  });

  it('retries a 429 and a 500, honouring Retry-After', async () => {
    const model = await setup();
    server!.script.push({ kind: 'status', status: 429, retryAfter: '0' }, { kind: 'status', status: 500 });
    const result = await embedMany({ model, texts: texts.slice(0, 3), cache: cache!, retry: FAST_RETRY });
    expect(result.embedded).toBe(3);
    expect(server!.requests).toHaveLength(3);
  });

  it('rejects vectors of the wrong dimension and caches nothing of that batch', async () => {
    const model = await setup({ dimensions: 6, maxParallelCalls: 1 });
    server!.script.push({ kind: 'answer' }, { kind: 'wrong-dimension' });
    const error = await embedMany({ model, texts, cache: cache!, retry: FAST_RETRY }).catch(
      (caught: unknown) => caught,
    );
    expect(MedbenchError.is(error) && error.code).toBe('EMBEDDING_INVALID');
    expect((error as Error).message).toMatch(/vector of 7 dimensions where 6 were expected/);
    expect(cache!.count(embeddingModelKey(model))).toBe(4);
  });

  it('rejects an answer with fewer vectors than inputs', async () => {
    const model = await setup();
    server!.script.push({ kind: 'wrong-count' });
    await expect(
      embedMany({ model, texts: texts.slice(0, 3), cache: cache!, retry: FAST_RETRY }),
    ).rejects.toThrow(/sent 3 texts, received 2 embeddings/);
  });
});
