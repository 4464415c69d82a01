import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmbeddingTestServer,
  startEmbeddingTestServer,
} from '../../test/support/embedding-test-server.js';
import { configSchema } from './config.js';
import { retrieverFromSpec } from './retrievers.js';

describe('headers and query parameters on an embedding endpoint (a gateway)', () => {
  let server: EmbeddingTestServer;
  beforeAll(async () => {
    server = await startEmbeddingTestServer({ dimensions: 8 });
  });
  afterAll(() => server.close());

  it('a config entry with headers (a secret from the environment) and query parameters', async () => {
    const config = configSchema.parse({
      embeddingModels: {
        gateway: {
          provider: 'openai-compatible',
          model: 'bge-m3',
          baseURL: `${server.url}/v1`,
          headers: { 'X-Route': 'eu', 'X-Gateway-Key': { env: 'GATEWAY_EMBED_KEY' } },
          query: { project: 'medbench' },
        },
      },
    });
    const retriever = await retrieverFromSpec({
      spec: 'gateway',
      config,
      environment: { GATEWAY_EMBED_KEY: 'gw-embed-9' },
    });
    await retriever.rank({ queries: ['fever'], corpus: ['fever and cough', 'rash'], topK: 2 });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/v1/embeddings?project=medbench');
    expect([request.headers['x-route'], request.headers['x-gateway-key']]).toEqual(['eu', 'gw-embed-9']);
  });
});

describe('an embedding entry with several endpoints (replicas)', () => {
  it('sends to every replica with its own key, and the restricted-data check sees each', async () => {
    const servers = [
      await startEmbeddingTestServer({ dimensions: 8, delayMs: 5 }),
      await startEmbeddingTestServer({ dimensions: 8, delayMs: 5 }),
    ];
    try {
      const config = configSchema.parse({
        embeddingModels: {
          replicas: {
            provider: 'openai-compatible',
            model: 'bge-m3',
            batchSize: 2,
            endpoints: servers.map((server, index) => ({
              baseURL: `${server.url}/v1`,
              apiKeyEnv: `REPLICA_KEY_${index}`,
              concurrency: 2,
            })),
          },
        },
      });
      const retriever = await retrieverFromSpec({
        spec: 'replicas',
        config,
        environment: { REPLICA_KEY_0: 'key-zero', REPLICA_KEY_1: 'key-one' },
      });
      await retriever.rank({
        queries: ['fever'],
        corpus: Array.from({ length: 16 }, (_, index) => `note ${index}`),
        topK: 3,
      });
      expect(
        servers.map((server) => new Set(server.requests.map((request) => request.headers.authorization))),
      ).toEqual([new Set(['Bearer key-zero']), new Set(['Bearer key-one'])]);
      const { checkRetrieverRestricted } = await import('./retrievers.js');
      const remote = configSchema.parse({
        embeddingModels: {
          mixed: {
            provider: 'openai-compatible',
            model: 'bge-m3',
            endpoints: [
              { baseURL: `${servers[0]!.url}/v1` },
              { baseURL: 'https://embeddings.example.org/v1' },
            ],
          },
        },
      });
      expect(() => checkRetrieverRestricted('mixed', remote, { what: 'test', why: 'restricted' })).toThrow(
        /embeddings\.example\.org/,
      );
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});
