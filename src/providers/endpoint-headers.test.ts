import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServers, startLlmTestServers } from '../../test/support/llm-test-server.js';
import { MedbenchError } from '../core/errors.js';
import { AnthropicChatModel } from './anthropic/anthropic-chat-model.js';
import { OpenAICompatibleChatModel } from './openai-compatible/openai-compatible-chat-model.js';

const PROVIDERS = ['openai-compatible', 'anthropic'] as const;
let servers: LlmTestServers<(typeof PROVIDERS)[number]>;
beforeAll(async () => {
  servers = await startLlmTestServers(PROVIDERS);
});
afterAll(() => servers.close());

const request = {
  messages: [{ role: 'user' as const, content: 'hi' }],
  parameters: { temperature: 0, maxOutputTokens: 8 },
};

describe('custom headers and query parameters (a gateway, LiteLLM, a proxy)', () => {
  it('sends fixed and secret headers and the query with every request', async () => {
    const server = servers['openai-compatible'];
    const model = new OpenAICompatibleChatModel({
      baseURL: `${server.url}/v1?tenant=a`,
      modelId: 'm',
      headers: { 'X-Route': 'clinical-eu' },
      secretHeaders: { 'X-Gateway-Secret': 'gw-secret-42' },
      query: { 'x-project': 'medbench' },
    });
    await model.generate(request);
    const received = server.requests.at(-1)!;
    expect(received.path).toBe('/v1/chat/completions?tenant=a&x-project=medbench');
    expect(received.headers['x-route']).toBe('clinical-eu');
    expect(received.headers['x-gateway-secret']).toBe('gw-secret-42');
  });

  it('fixed headers are part of the endpoint identity; secret ones are not, and never show', () => {
    const server = servers['openai-compatible'];
    const base = { baseURL: `${server.url}/v1`, modelId: 'm' };
    const eu = new OpenAICompatibleChatModel({ ...base, headers: { 'X-Route': 'eu' } });
    const us = new OpenAICompatibleChatModel({ ...base, headers: { 'X-Route': 'us' } });
    const euAgain = new OpenAICompatibleChatModel({
      ...base,
      headers: { 'x-route': 'eu' },
      secretHeaders: { 'X-Gateway-Secret': 'other-secret' },
    });
    expect(eu.endpoint).not.toBe(us.endpoint);
    expect(euAgain.endpoint).toBe(eu.endpoint);
    expect(eu.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1#headers=[0-9a-f]{12}$/);
    expect(new OpenAICompatibleChatModel(base).endpoint).toBe(`${server.url}/v1`);
  });

  it('a secret header echoed in an error body is taken out of the message', async () => {
    const server = servers['openai-compatible'];
    server.script.push({
      kind: 'status',
      status: 400,
      body: '{"error": "bad header X-Gateway-Secret=gw-secret-42"}',
    });
    const model = new OpenAICompatibleChatModel({
      baseURL: `${server.url}/v1`,
      modelId: 'm',
      secretHeaders: { 'X-Gateway-Secret': 'gw-secret-42' },
    });
    const error = await model.generate(request).catch((caught: unknown) => caught);
    expect(MedbenchError.is(error)).toBe(true);
    expect((error as MedbenchError).message).not.toContain('gw-secret-42');
    expect((error as MedbenchError).message).toContain('[redacted]');
  });

  it('Anthropic takes them too, beside its own x-api-key and version', async () => {
    const server = servers.anthropic;
    const model = new AnthropicChatModel({
      baseURL: server.url,
      modelId: 'claude-test',
      apiKey: 'sk-ant',
      headers: { 'anthropic-beta': 'prompt-caching-2024-07-31' },
    });
    await model.generate(request);
    const received = server.requests.at(-1)!;
    expect(received.path).toBe('/v1/messages');
    expect([
      received.headers['anthropic-beta'],
      received.headers['x-api-key'],
      received.headers['anthropic-version'],
    ]).toEqual(['prompt-caching-2024-07-31', 'sk-ant', '2023-06-01']);
  });
});
