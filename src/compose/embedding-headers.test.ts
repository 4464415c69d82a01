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
