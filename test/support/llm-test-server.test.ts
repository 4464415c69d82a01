import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LlmTestServers,
  PROVIDER_NAMES,
  type ProviderName,
  startLlmTestServers,
} from './llm-test-server.js';

let servers: LlmTestServers<ProviderName>;
beforeAll(async () => {
  servers = await startLlmTestServers(PROVIDER_NAMES);
});
afterAll(() => servers.close());

async function post(provider: ProviderName, path: string) {
  const response = await fetch(`${servers[provider].url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Another provider's route: what each server is asked that it does not have. */
const FOREIGN: Record<ProviderName, string> = {
  'openai-compatible': '/v1/messages',
  'azure-openai': '/v1/chat/completions',
  anthropic: '/v1/chat/completions',
  bedrock: '/api/chat',
  gemini: '/v1beta1/projects/p/locations/l/publishers/google/models/m:generateContent',
  'vertex-ai': '/v1beta/models/m:generateContent',
  ollama: '/v1/chat/completions',
};

describe('the LLM test server answers only its provider’s documented routes', () => {
  it.each(PROVIDER_NAMES)('%s: another provider’s route is its own 404, recorded apart', async (provider) => {
    const { status, headers, text } = await post(provider, FOREIGN[provider]);
    expect(status).toBe(404);
    expect(servers[provider].unrouted.at(-1)!.path).toBe(FOREIGN[provider]);
    expect(servers[provider].requests).toHaveLength(0);
    const shapes: Record<ProviderName, () => void> = {
      'openai-compatible': () =>
        expect(JSON.parse(text)).toEqual({
          error: expect.objectContaining({
            message: 'Invalid URL (POST /v1/messages)',
            type: 'invalid_request_error',
          }),
        }),
      'azure-openai': () =>
        expect(JSON.parse(text)).toEqual({ error: { code: '404', message: 'Resource not found' } }),
      anthropic: () =>
        expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'not_found_error' } }),
      bedrock: () => expect(headers.get('x-amzn-errortype')).toMatch(/^UnknownOperationException:/),
      gemini: () => expect(JSON.parse(text)).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } }),
      'vertex-ai': () =>
        expect(JSON.parse(text)).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } }),
      ollama: () => expect(text).toBe('404 page not found'),
    };
    shapes[provider]();
  });

  it('a scripted status is answered with the provider’s documented error for it', async () => {
    servers.anthropic.script.push({ kind: 'status', status: 529 });
    const overloaded = await post('anthropic', '/v1/messages');
    expect([overloaded.status, JSON.parse(overloaded.text)]).toEqual([
      529,
      expect.objectContaining({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    ]);
    servers.bedrock.script.push({ kind: 'status', status: 429 });
    const throttled = await post('bedrock', '/model/amazon.nova-pro-v1%3A0/converse');
    expect(throttled.headers.get('x-amzn-errortype')).toMatch(/^ThrottlingException:/);
    servers.gemini.script.push({ kind: 'status', status: 429 });
    const exhausted = await post('gemini', '/v1beta/models/gemini-2.5-flash:generateContent');
    expect(JSON.parse(exhausted.text)).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
  });

  it('Azure without api-version is "Resource not found", as Azure answers it', async () => {
    const { status, text } = await post('azure-openai', '/openai/deployments/d/chat/completions');
    expect([status, JSON.parse(text)]).toEqual([
      404,
      { error: { code: '404', message: 'Resource not found' } },
    ]);
  });
});
