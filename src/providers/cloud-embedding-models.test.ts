import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEmbeddingModelContract } from '../../test/support/embedding-model-contract.js';
import {
  type EmbeddingTestServer,
  hashedBagOfWords,
  startEmbeddingTestServer,
} from '../../test/support/embedding-test-server.js';
import { verifySigV4 } from '../../test/support/sigv4.js';
import type { EmbeddingModel } from '../core/embedding-model.js';
import { AzureOpenAIEmbeddingModel } from './azure-openai/azure-openai-embedding-model.js';
import { BedrockEmbeddingModel } from './bedrock/bedrock-embedding-model.js';
import { GeminiEmbeddingModel } from './gemini/gemini-embedding-model.js';
import { OllamaEmbeddingModel } from './ollama/ollama-embedding-model.js';

const saved = { ...process.env };
beforeAll(() => {
  process.env.AWS_ACCESS_KEY_ID = 'AKIDEMBED';
  process.env.AWS_SECRET_ACCESS_KEY = 'embed-secret';
});
afterAll(() => {
  process.env = saved;
});

const contract = (name: string, create: (url: string) => EmbeddingModel) =>
  runEmbeddingModelContract(name, async () => {
    const server = await startEmbeddingTestServer({ dimensions: 16 });
    return { model: create(server.url), done: () => server.close() };
  });
contract('Ollama /api/embed', (url) => new OllamaEmbeddingModel({ baseURL: url, modelId: 'bge-m3' }));
contract(
  'Bedrock Titan v2',
  (url) =>
    new BedrockEmbeddingModel({
      modelId: 'amazon.titan-embed-text-v2:0',
      region: 'us-east-1',
      endpointURL: url,
    }),
);
contract(
  'Bedrock Cohere v3',
  (url) =>
    new BedrockEmbeddingModel({
      modelId: 'cohere.embed-multilingual-v3',
      region: 'us-east-1',
      endpointURL: url,
    }),
);
contract(
  'Gemini API',
  (url) => new GeminiEmbeddingModel({ modelId: 'text-embedding-004', apiKey: 'k-embed', baseURL: url }),
);

describe('embedding requests on the wire', () => {
  let server: EmbeddingTestServer;
  beforeAll(async () => {
    server = await startEmbeddingTestServer({ dimensions: 8 });
  });
  afterAll(() => server.close());

  it('Ollama: model, inputs and truncate: false (a long text is an error, not cut)', async () => {
    const model = new OllamaEmbeddingModel({ baseURL: server.url, modelId: 'bge-m3' });
    const { embeddings, usage } = await model.embed({ values: ['chest pain', '胸痛'] });
    expect(server.requests.at(-1)).toMatchObject({
      path: '/api/embed',
      body: { model: 'bge-m3', input: ['chest pain', '胸痛'], truncate: false },
    });
    expect([...embeddings[1]!]).toEqual(Array.from(Float32Array.from(hashedBagOfWords('胸痛', 8))));
    expect(usage).toEqual({ tokens: 3 }); // the server counts words: chest, pain, 胸痛
  });

  it('Bedrock Titan v2: one text, normalize and dimensions, signed with SigV4', async () => {
    const model = new BedrockEmbeddingModel({
      modelId: 'amazon.titan-embed-text-v2:0',
      region: 'eu-west-1',
      endpointURL: server.url,
      dimensions: 256,
    });
    expect([model.maxEmbeddingsPerCall, model.dimensions, model.inputRoles]).toEqual([1, 256, false]);
    const { embeddings } = await model.embed({ values: ['chest pain'] });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/model/amazon.titan-embed-text-v2%3A0/invoke');
    expect(request.body).toEqual({ inputText: 'chest pain', normalize: true, dimensions: 256 });
    expect(request.headers['content-type']).toBe('application/json');
    expect(
      verifySigV4(
        { ...request, rawBody: JSON.stringify(request.body), remotePort: undefined, receivedAt: 0 },
        'embed-secret',
      ).scope,
    ).toMatch(/\/eu-west-1\/bedrock\/aws4_request$/);
    expect(embeddings[0]).toHaveLength(256);
  });

  it('Bedrock Cohere: a batch with the input type of its role, never truncated', async () => {
    const model = new BedrockEmbeddingModel({
      modelId: 'cohere.embed-english-v3',
      region: 'us-east-1',
      endpointURL: server.url,
    });
    expect([model.maxEmbeddingsPerCall, model.inputRoles]).toEqual([96, true]);
    await model.embed({ values: ['fever?'], role: 'query' });
    expect(server.requests.at(-1)!.body).toEqual({
      texts: ['fever?'],
      input_type: 'search_query',
      truncate: 'NONE',
    });
    await model.embed({ values: ['a note', 'another'], role: 'document' });
    expect(server.requests.at(-1)!.body).toEqual({
      texts: ['a note', 'another'],
      input_type: 'search_document',
      truncate: 'NONE',
    });
  });

  it('Gemini API: batchEmbedContents with the retrieval task type of each role', async () => {
    const model = new GeminiEmbeddingModel({
      modelId: 'text-embedding-004',
      apiKey: 'k-embed',
      baseURL: server.url,
    });
    await model.embed({ values: ['fever?', 'rash?'], role: 'query' });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/v1/models/text-embedding-004:batchEmbedContents');
    expect(request.headers['x-goog-api-key']).toBe('k-embed');
    expect(request.body).toEqual({
      requests: [
        {
          model: 'models/text-embedding-004',
          content: { parts: [{ text: 'fever?' }], role: 'user' },
          taskType: 'RETRIEVAL_QUERY',
        },
        {
          model: 'models/text-embedding-004',
          content: { parts: [{ text: 'rash?' }], role: 'user' },
          taskType: 'RETRIEVAL_QUERY',
        },
      ],
    });
    await model.embed({ values: ['a note'], role: 'document' });
    expect((server.requests.at(-1)!.body.requests as Array<{ taskType: string }>)[0]!.taskType).toBe(
      'RETRIEVAL_DOCUMENT',
    );
  });
});

describe('Azure OpenAI embeddings', () => {
  let server: EmbeddingTestServer;
  beforeAll(async () => {
    server = await startEmbeddingTestServer({ dimensions: 8 });
  });
  afterAll(() => server.close());

  it('Azure: the deployment URL with api-version, the key in api-key, no model field', async () => {
    const model = new AzureOpenAIEmbeddingModel({
      resourceURL: server.url,
      deployment: 'embed-large',
      modelId: 'text-embedding-3-large',
      apiKey: 'azure-embed-key',
    });
    const { embeddings } = await model.embed({ values: ['chest pain'] });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/openai/deployments/embed-large/embeddings?api-version=2024-10-21');
    expect(request.headers['api-key']).toBe('azure-embed-key');
    expect(request.body).toEqual({ input: ['chest pain'], encoding_format: 'float' });
    expect([...embeddings[0]!]).toEqual(Array.from(Float32Array.from(hashedBagOfWords('chest pain', 8))));
    expect(model.provider).toBe('azure-openai');
  });
});
