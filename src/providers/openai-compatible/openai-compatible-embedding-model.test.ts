import { afterEach, describe, expect, it } from 'vitest';
import { runEmbeddingModelContract } from '../../../test/support/embedding-model-contract.js';
import {
  type EmbeddingTestServer,
  hashedBagOfWords,
  startEmbeddingTestServer,
} from '../../../test/support/embedding-test-server.js';
import { MedbenchError } from '../../core/errors.js';
import {
  decodeBase64Embedding,
  OpenAICompatibleEmbeddingModel,
} from './openai-compatible-embedding-model.js';

for (const encodingFormat of ['float', 'base64'] as const) {
  runEmbeddingModelContract(`openai-compatible (${encodingFormat})`, async () => {
    const server = await startEmbeddingTestServer({ dimensions: 16 });
    const model = new OpenAICompatibleEmbeddingModel({
      baseURL: `${server.url}/v1`,
      modelId: 'bge-m3',
      encodingFormat,
    });
    return { model, done: () => server.close() };
  });
}

describe('OpenAICompatibleEmbeddingModel', () => {
  let server: EmbeddingTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('posts model, inputs, encoding and the key, and decodes base64 to the same floats', async () => {
    server = await startEmbeddingTestServer({ dimensions: 8 });
    const model = new OpenAICompatibleEmbeddingModel({
      baseURL: `${server.url}/v1/`,
      modelId: 'text-embedding-3-large',
      apiKey: 'sk-test-secret',
      encodingFormat: 'base64',
      dimensions: 8,
      sendDimensions: true,
    });
    const { embeddings, usage } = await model.embed({ values: ['chest pain', '胸痛'] });
    const [request] = server.requests;
    expect(request!.path).toBe('/v1/embeddings');
    expect(request!.body).toEqual({
      model: 'text-embedding-3-large',
      input: ['chest pain', '胸痛'],
      encoding_format: 'base64',
      dimensions: 8,
    });
    expect(request!.headers.authorization).toBe('Bearer sk-test-secret');
    expect([...embeddings[0]!]).toEqual(Array.from(Float32Array.from(hashedBagOfWords('chest pain', 8))));
    expect([...embeddings[1]!]).toEqual(Array.from(Float32Array.from(hashedBagOfWords('胸痛', 8))));
    expect(usage).toEqual({ tokens: 3 });
  });

  it('reads floats from a server that ignores encoding_format', async () => {
    server = await startEmbeddingTestServer({ dimensions: 4, ignoreEncodingFormat: true });
    const model = new OpenAICompatibleEmbeddingModel({
      baseURL: server.url,
      modelId: 'm',
      encodingFormat: 'base64',
    });
    const { embeddings } = await model.embed({ values: ['a b'] });
    expect([...embeddings[0]!]).toEqual(Array.from(Float32Array.from(hashedBagOfWords('a b', 4))));
  });

  it('turns a 429 into a retryable error carrying Retry-After, and never shows the key', async () => {
    server = await startEmbeddingTestServer({ dimensions: 4 });
    server.script.push({ kind: 'status', status: 429, retryAfter: '2' });
    const model = new OpenAICompatibleEmbeddingModel({
      baseURL: server.url,
      modelId: 'm',
      apiKey: 'sk-hidden',
    });
    const error = await model.embed({ values: ['a'] }).catch((caught: unknown) => caught);
    expect(MedbenchError.is(error) && error.retryable && error.retryAfterMs === 2000).toBe(true);
    expect(String((error as Error).message)).not.toContain('sk-hidden');
  });

  it('rejects a base64 payload that is not whole float32 values', () => {
    expect(() => decodeBase64Embedding(Buffer.from([1, 2, 3]).toString('base64'))).toThrow(
      /not a whole number/,
    );
  });
});
