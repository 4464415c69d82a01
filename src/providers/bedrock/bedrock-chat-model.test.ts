import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../../../test/support/llm-test-server.js';
import { verifySigV4 } from '../../../test/support/sigv4.js';
import { MedbenchError } from '../../core/errors.js';
import { BedrockChatModel } from './bedrock-chat-model.js';

let server: LlmTestServer;
const saved = { ...process.env };
beforeAll(async () => {
  server = await startLlmTestServer({
    provider: 'bedrock',
    fallback: () => ({ kind: 'answer', text: 'Shuweng' }),
  });
  // The SDK's own credential chain reads these, as it would on a user's machine.
  process.env.AWS_ACCESS_KEY_ID = 'AKIDMEDBENCHTEST';
  process.env.AWS_SECRET_ACCESS_KEY = 'bedrock-secret-key-for-tests';
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
});
afterAll(async () => {
  process.env = saved;
  await server.close();
});

const model = (modelId = 'anthropic.claude-3-haiku-20240307-v1:0') =>
  new BedrockChatModel({ modelId, region: 'eu-central-1', endpointURL: server.url });

// Bedrock Runtime API reference, Converse: POST /model/{modelId}/converse with
// {messages: [{role, content: [{text}]}], system: [{text}], inferenceConfig: {maxTokens, temperature}},
// signed with SigV4 for service "bedrock"; answer {output: {message: {content: [{text}]}}, stopReason, usage}.
describe('Amazon Bedrock on the wire', () => {
  it('sends a Converse request signed with SigV4 for the region, and reads text and usage', async () => {
    const response = await model().generate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Who?' },
      ],
      parameters: { temperature: 0, maxOutputTokens: 500 },
    });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse');
    expect(request.body).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Who?' }] }],
      system: [{ text: 'Be brief.' }],
      inferenceConfig: { temperature: 0, maxTokens: 500 },
    });
    const signed = verifySigV4(request, 'bedrock-secret-key-for-tests');
    expect(signed.accessKeyId).toBe('AKIDMEDBENCHTEST');
    expect(signed.scope).toMatch(/^\d{8}\/eu-central-1\/bedrock\/aws4_request$/);
    // "Be brief.\nWho?" is 14 characters, "Shuweng" 7: the server counts a token per 4.
    expect(response).toEqual({
      text: 'Shuweng',
      usage: { inputTokens: 4, outputTokens: 2 },
      finishReason: 'end_turn',
    });
    expect(() => verifySigV4(request, 'another-secret')).toThrow(/signature mismatch/);
  });

  it("sends the endpoint's headers and query parameters on every request, signed with the rest", async () => {
    const gateway = new BedrockChatModel({
      modelId: 'anthropic.claude-3-haiku-20240307-v1:0',
      region: 'eu-central-1',
      endpointURL: server.url,
      headers: { 'x-institution': 'uk-essen' },
      query: { tenant: 'radiology' },
    });
    await gateway.countTokens([{ role: 'user', content: 'x' }]);
    await gateway.generate({
      messages: [{ role: 'user', content: 'x' }],
      parameters: { temperature: 0, maxOutputTokens: 8 },
    });
    for (const request of [server.counts.at(-1)!, server.requests.at(-1)!]) {
      expect(request.path).toMatch(
        /^\/model\/anthropic\.claude-3-haiku-20240307-v1%3A0\/(count-tokens|converse)\?tenant=radiology$/,
      );
      expect(request.headers['x-institution']).toBe('uk-essen');
      expect(verifySigV4(request, 'bedrock-secret-key-for-tests').accessKeyId).toBe('AKIDMEDBENCHTEST');
    }
    // Query and fixed headers may route to another server: part of the identity; a secret header is not.
    expect(gateway.endpoint).toMatch(new RegExp(`^${server.url}\\?tenant=radiology#headers=[0-9a-f]{12}$`));
    const withSecret = new BedrockChatModel({
      modelId: 'm',
      region: 'eu-central-1',
      endpointURL: server.url,
      headers: { 'x-institution': 'uk-essen' },
      secretHeaders: { 'x-gateway-secret': 'gw-1' },
      query: { tenant: 'radiology' },
    });
    expect(withSecret.endpoint).toBe(gateway.endpoint);
  });
  it('the SDK retries nothing itself: one request per attempt, the runner counts them', async () => {
    const before = server.requests.length;
    server.script.push({ kind: 'status', status: 503 });
    const error = await model()
      .generate({
        messages: [{ role: 'user', content: 'x' }],
        parameters: { temperature: 0, maxOutputTokens: 8 },
      })
      .catch((caught: unknown) => caught);
    expect((error as MedbenchError).retryable).toBe(true);
    expect(server.requests.length - before).toBe(1);
  });

  it('an unknown model is a 404 whose hint names the model id and the region', async () => {
    server.script.push({
      kind: 'status',
      status: 404,
      body: '{"message": "Could not resolve the foundation model from the provided model identifier."}',
    });
    const error = await model('anthropic.claude-typo')
      .generate({
        messages: [{ role: 'user', content: 'x' }],
        parameters: { temperature: 0, maxOutputTokens: 8 },
      })
      .catch((caught: unknown) => caught);
    expect(MedbenchError.is(error)).toBe(true);
    expect((error as MedbenchError).retryable).toBe(false);
    expect((error as MedbenchError).hint).toMatch(/"anthropic\.claude-typo".*region eu-central-1/);
  });

  it('no region is a clear error before anything is sent', async () => {
    delete process.env.AWS_REGION;
    delete process.env.AWS_DEFAULT_REGION;
    const before = server.requests.length;
    const error = await new BedrockChatModel({ modelId: 'm', endpointURL: server.url })
      .generate({
        messages: [{ role: 'user', content: 'x' }],
        parameters: { temperature: 0, maxOutputTokens: 8 },
      })
      .catch((caught: unknown) => caught);
    expect([(error as MedbenchError).code, (error as MedbenchError).hint]).toEqual([
      'CONFIG_INVALID',
      expect.stringContaining('AWS_REGION'),
    ]);
    expect(server.requests.length).toBe(before);
  });
});
