import { afterEach, describe, expect, it } from 'vitest';
import { runEmbeddingModelContract } from '../../test/support/embedding-model-contract.js';
import {
  type EmbeddingTestServer,
  startEmbeddingTestServer,
} from '../../test/support/embedding-test-server.js';
import { OpenAICompatibleEmbeddingModel } from '../providers/openai-compatible/openai-compatible-embedding-model.js';
import { embedMany } from './embed-many.js';
import { ReplicatedEmbeddingModel } from './replicated-embedding-model.js';

const replica = (server: EmbeddingTestServer, maxParallelCalls = 2) =>
  new OpenAICompatibleEmbeddingModel({
    baseURL: `${server.url}/v1`,
    modelId: 'bge-m3',
    batchSize: 4,
    maxParallelCalls,
  });

runEmbeddingModelContract('replicated (two endpoints)', async () => {
  const servers = [
    await startEmbeddingTestServer({ dimensions: 16 }),
    await startEmbeddingTestServer({ dimensions: 16 }),
  ];
  return {
    model: new ReplicatedEmbeddingModel(servers.map((server) => replica(server))),
    done: async () => {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
});

describe('an embedding model on several endpoints', () => {
  let servers: EmbeddingTestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  const texts = Array.from({ length: 64 }, (_, index) => `note ${index} fever cough ${index % 7}`);

  it('spreads the calls over the replicas, with the vectors one endpoint gives', async () => {
    servers = [
      await startEmbeddingTestServer({ dimensions: 16, delayMs: 5 }),
      await startEmbeddingTestServer({ dimensions: 16, delayMs: 5 }),
    ];
    const model = new ReplicatedEmbeddingModel(servers.map((server) => replica(server)));
    expect([model.maxParallelCalls, model.maxEmbeddingsPerCall]).toEqual([4, 4]);
    const both = await embedMany({ model, texts });
    expect(servers.every((server) => server.requests.length >= 4)).toBe(true);
    expect(servers[0]!.requests.length + servers[1]!.requests.length).toBe(16);
    const alone = await embedMany({ model: replica(servers[0]!), texts });
    expect([...both.vectors]).toEqual([...alone.vectors]);
  });

  it('a replica that is gone: every call goes to the other, nothing fails, nothing is embedded twice', async () => {
    servers = [
      await startEmbeddingTestServer({ dimensions: 16 }),
      await startEmbeddingTestServer({ dimensions: 16 }),
    ];
    const gone = servers.pop()!;
    const goneModel = replica(gone);
    await gone.close();
    const model = new ReplicatedEmbeddingModel([goneModel, replica(servers[0]!)]);
    const result = await embedMany({
      model,
      texts,
      retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 10, unreachableMs: 500, maxRetryAfterMs: 100 },
    });
    expect(result.embedded).toBe(64);
    expect(servers[0]!.requests.flatMap((request) => request.body.input ?? [])).toHaveLength(64);
  });
});
