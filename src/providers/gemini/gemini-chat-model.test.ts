import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashedBagOfWords, startEmbeddingTestServer } from '../../../test/support/embedding-test-server.js';
import { METADATA_ACCESS_TOKEN, onGoogleCloudVm } from '../../../test/support/gce-metadata-server.js';
import { type LlmTestServer, startLlmTestServer } from '../../../test/support/llm-test-server.js';
import { MedbenchError } from '../../core/errors.js';
import { GeminiChatModel } from './gemini-chat-model.js';
import { GeminiEmbeddingModel } from './gemini-embedding-model.js';
import { geminiFailure } from './gemini-errors.js';

let server: LlmTestServer;
beforeAll(async () => {
  server = await startLlmTestServer({
    provider: 'gemini',
    fallback: () => ({ kind: 'answer', text: 'Shuweng' }),
  });
});
afterAll(() => server.close());

const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Who?' },
];
const parameters = { temperature: 0, maxOutputTokens: 500 };

// Gemini API reference: POST /v1/models/{model}:generateContent, key in x-goog-api-key, body
// {contents: [{role, parts: [{text}]}], systemInstruction: {parts: [{text}]}, generationConfig:
// {temperature, maxOutputTokens}}; answer {candidates: [{content: {parts}, finishReason}], usageMetadata}.
describe('Gemini API on the wire', () => {
  it('sends contents, system instruction and generation config with the key in x-goog-api-key', async () => {
    const model = new GeminiChatModel({
      modelId: 'gemini-2.5-pro',
      apiKey: 'gemini-key-5150',
      baseURL: server.url,
    });
    const response = await model.generate({ messages, parameters });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/v1/models/gemini-2.5-pro:generateContent');
    expect(request.headers['x-goog-api-key']).toBe('gemini-key-5150');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Who?' }] }],
      systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }] },
      generationConfig: { temperature: 0, maxOutputTokens: 500 },
    });
    expect(response).toEqual({
      text: 'Shuweng',
      usage: { inputTokens: 4, outputTokens: 2 },
      finishReason: 'STOP',
      // The response's modelVersion: the model that answered, for the run's manifest.
      modelVersion: 'gemini-2.5-flash',
    });
    expect(model.endpoint).toBe(server.url);
  });

  it('a bad key (HTTP 400 "API key not valid") is an authentication failure naming the variable', async () => {
    server.script.push({
      kind: 'status',
      status: 400,
      body: '{"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.", "status": "INVALID_ARGUMENT"}}',
    });
    const model = new GeminiChatModel({
      modelId: 'gemini-2.5-pro',
      apiKey: 'bad-key-1',
      apiKeyEnv: 'GEMINI_API_KEY',
      baseURL: server.url,
    });
    const error = (await model
      .generate({ messages, parameters })
      .catch((caught: unknown) => caught)) as MedbenchError;
    expect(MedbenchError.is(error)).toBe(true);
    expect([error.code, error.retryable, error.hint]).toEqual([
      'ENDPOINT_AUTH',
      false,
      expect.stringContaining('GEMINI_API_KEY'),
    ]);
  });

  it("a 429's RetryInfo delay in the body is kept for the runner's wait", async () => {
    server.script.push({
      kind: 'status',
      status: 429,
      body: '{"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "message": "Quota exceeded", "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "7s"}]}}',
    });
    const model = new GeminiChatModel({ modelId: 'gemini-2.5-pro', apiKey: 'k-123', baseURL: server.url });
    const error = (await model
      .generate({ messages, parameters })
      .catch((caught: unknown) => caught)) as MedbenchError;
    expect([error.retryable, error.retryAfterMs]).toEqual([true, 7000]);
  });
});

// Gemini API reference, models.countTokens: POST /v1/models/{model}:countTokens with {contents}
// (or a whole generateContentRequest); the SDK refuses systemInstruction there on the Gemini API.
describe('Gemini API: counting tokens, query parameters, refusals before sending', () => {
  it('counts a prompt with a system message: the system text goes first in contents, so it is counted', async () => {
    const model = new GeminiChatModel({ modelId: 'gemini-2.5-pro', apiKey: 'k-123', baseURL: server.url });
    const before = server.counts.length;
    // "Be brief.\nWho?" is 14 characters: the server counts 4 tokens, 1 of them without the system text.
    expect(await model.countTokens(messages)).toBe(4);
    expect(server.counts.length - before).toBe(1);
    expect(server.counts.at(-1)).toMatchObject({
      path: '/v1/models/gemini-2.5-pro:countTokens',
      body: {
        contents: [
          { role: 'user', parts: [{ text: 'Be brief.' }] },
          { role: 'user', parts: [{ text: 'Who?' }] },
        ],
      },
    });
    expect(server.counts.at(-1)!.body.systemInstruction).toBeUndefined();
  });

  it("sends the endpoint's query parameters on every route: probe, count, generate", async () => {
    server.servedModels = [{ id: 'gemini-2.5-pro', inputTokenLimit: 1048576 }];
    try {
      const model = new GeminiChatModel({
        modelId: 'gemini-2.5-pro',
        apiKey: 'k-123',
        baseURL: server.url,
        query: { tenant: 'uk-essen' },
      });
      await model.probe();
      await model.countTokens(messages);
      await model.generate({ messages, parameters });
      expect(server.probes.at(-1)!.path).toBe('/v1/models/gemini-2.5-pro?tenant=uk-essen');
      expect(server.counts.at(-1)!.path).toBe('/v1/models/gemini-2.5-pro:countTokens?tenant=uk-essen');
      expect(server.requests.at(-1)!.path).toBe('/v1/models/gemini-2.5-pro:generateContent?tenant=uk-essen');
      expect(model.endpoint).toBe(`${server.url}?tenant=uk-essen`);
    } finally {
      server.servedModels = undefined;
    }
  });

  it("leaves no listener on the caller's signal: calls sharing one (a run's) pile none up, and nothing warns", async () => {
    const embeddings = await startEmbeddingTestServer({ dimensions: 8 });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const model = new GeminiEmbeddingModel({
        modelId: 'gemini-embedding-001',
        apiKey: 'k-123',
        baseURL: embeddings.url,
      });
      const chat = new GeminiChatModel({ modelId: 'gemini-2.5-pro', apiKey: 'k-123', baseURL: server.url });
      const run = new AbortController();
      for (let call = 0; call < 12; call++) {
        await model.embed({ values: [`text ${call}`], role: 'document', signal: run.signal });
        await chat.generate({ messages, parameters, signal: run.signal });
      }
      expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
      await embeddings.close();
    }
  });

  it('the SDK refusing a request before sending it is a configuration error, not a bad answer', () => {
    const refused = geminiFailure(new Error('tools parameter is only supported in Vertex AI mode.'), {
      shown: server.url,
      modelId: 'gemini-2.5-pro',
      authHint: '',
      retryAfterMs: undefined,
      secrets: [],
      sent: false,
    });
    expect([refused.code, refused.retryable]).toEqual(['CONFIG_INVALID', false]);
    expect(refused.message).toContain('nothing was sent');
    // The same error after a request went out is the server's answer the SDK could not read.
    const unread = geminiFailure(new Error('Unexpected token'), {
      shown: server.url,
      modelId: 'gemini-2.5-pro',
      authHint: '',
      retryAfterMs: undefined,
      secrets: [],
      sent: true,
    });
    expect(unread.code).toBe('ENDPOINT_BAD_RESPONSE');
  });
});

describe('Vertex AI with Application Default Credentials (the attached service account)', () => {
  // ADC asks a Google Cloud VM's metadata server for the attached service account's token.
  const asked = onGoogleCloudVm();
  let vertexServer: LlmTestServer;
  beforeAll(async () => {
    vertexServer = await startLlmTestServer({
      provider: 'vertex-ai',
      fallback: () => ({ kind: 'answer', text: 'Shuweng' }),
    });
  });
  afterAll(() => vertexServer.close());

  it('gets a token from the metadata server, then sends to the project and location with it', async () => {
    const model = new GeminiChatModel({
      modelId: 'gemini-2.5-pro',
      vertex: { project: 'clinical-eval', location: 'europe-west4' },
      baseURL: vertexServer.url,
    });
    const response = await model.generate({ messages, parameters });
    expect(response.text).toBe('Shuweng');
    expect(
      asked.some((entry) =>
        entry.path.startsWith('/computeMetadata/v1/instance/service-accounts/default/token'),
      ),
    ).toBe(true);
    expect(asked.every((entry) => entry.flavor === 'Google')).toBe(true);
    const request = vertexServer.requests.at(-1)!;
    expect(request.path).toBe(
      '/v1beta1/projects/clinical-eval/locations/europe-west4/publishers/google/models/gemini-2.5-pro:generateContent',
    );
    expect(request.headers.authorization).toBe(`Bearer ${METADATA_ACCESS_TOKEN}`);
    expect(model.provider).toBe('vertex-ai');
    expect(model.endpoint).toBe(`${vertexServer.url}/projects/clinical-eval/locations/europe-west4`);
  });
  it("declares no maximum context on Vertex AI: models.get's publisher model carries no input token limit", async () => {
    // Even a server that sends inputTokenLimit: the SDK reads it on the Gemini API only.
    server.servedModels = [{ id: 'gemini-2.5-pro', inputTokenLimit: 1048576 }];
    vertexServer.servedModels = server.servedModels;
    try {
      const vertex = new GeminiChatModel({
        modelId: 'gemini-2.5-pro',
        vertex: { project: 'clinical-eval', location: 'europe-west4' },
        baseURL: vertexServer.url,
      });
      expect(await vertex.probe()).toEqual({});
      expect(vertexServer.probes.at(-1)!.path).toBe('/v1beta1/publishers/google/models/gemini-2.5-pro');
      const gemini = new GeminiChatModel({ modelId: 'gemini-2.5-pro', apiKey: 'k-123', baseURL: server.url });
      expect(await gemini.probe()).toEqual({ maxContextTokens: 1048576 });
    } finally {
      server.servedModels = undefined;
      vertexServer.servedModels = undefined;
    }
  });

  it('embeds through Vertex AI predict with the same sign-in: task type per role, no auto-truncation', async () => {
    const embeddingServer = await startEmbeddingTestServer({ dimensions: 8 });
    try {
      const model = new GeminiEmbeddingModel({
        modelId: 'text-embedding-005',
        vertex: { project: 'clinical-eval', location: 'europe-west4' },
        baseURL: embeddingServer.url,
      });
      const { embeddings } = await model.embed({ values: ['fever?', 'rash?'], role: 'query' });
      const request = embeddingServer.requests.at(-1)!;
      expect(request.path).toBe(
        '/v1beta1/projects/clinical-eval/locations/europe-west4/publishers/google/models/text-embedding-005:predict',
      );
      expect(request.headers.authorization).toBe(`Bearer ${METADATA_ACCESS_TOKEN}`);
      expect(request.body).toEqual({
        instances: [
          { content: 'fever?', task_type: 'RETRIEVAL_QUERY' },
          { content: 'rash?', task_type: 'RETRIEVAL_QUERY' },
        ],
        parameters: { autoTruncate: false },
      });
      expect([...embeddings[1]!]).toEqual(Array.from(Float32Array.from(hashedBagOfWords('rash?', 8))));
    } finally {
      await embeddingServer.close();
    }
  });
});
