import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../../../test/support/llm-test-server.js';
import { MedbenchError } from '../../core/errors.js';
import { AzureOpenAIChatModel } from './azure-openai-chat-model.js';

let server: LlmTestServer;
beforeAll(async () => {
  server = await startLlmTestServer({ provider: 'azure-openai' });
});
afterAll(() => server.close());

const parameters = { temperature: 0, maxOutputTokens: 64 };
const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'hello' },
];

// Azure OpenAI REST reference (data plane, 2024-10-21): POST
// {endpoint}/openai/deployments/{deployment-id}/chat/completions?api-version=…, the key in an
// `api-key` header or an Entra ID token as `Authorization: Bearer`, OpenAI's chat body.
describe('Azure OpenAI on the wire', () => {
  it('sends to the deployment with api-version, the key in api-key, and no model field', async () => {
    const model = new AzureOpenAIChatModel({
      resourceURL: `${server.url}/`,
      deployment: 'gpt-4o-prod',
      modelId: 'gpt-4o',
      apiKey: 'azure-key-123',
    });
    const response = await model.generate({ messages, parameters });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21');
    expect(request.headers['api-key']).toBe('azure-key-123');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({ messages, temperature: 0, max_tokens: 64, stream: false });
    expect(response.text).toBe('{"answer": "ok"}');
    expect(model.provider).toBe('azure-openai');
    // The identity names resource, deployment and version, never the key.
    expect(model.endpoint).toBe(`${server.url}/openai/deployments/gpt-4o-prod?api-version=2024-10-21`);
  });

  it('signs in with an Entra ID token, asked for before every request', async () => {
    let issued = 0;
    const model = new AzureOpenAIChatModel({
      resourceURL: server.url,
      deployment: 'd',
      modelId: 'gpt-4o',
      apiVersion: '2025-01-01-preview',
      bearerToken: async () => `entra-token-${++issued}`,
    });
    await model.generate({ messages, parameters });
    await model.generate({ messages, parameters });
    const [first, second] = server.requests.slice(-2);
    expect(first!.path).toBe('/openai/deployments/d/chat/completions?api-version=2025-01-01-preview');
    expect([first!.headers.authorization, second!.headers.authorization]).toEqual([
      'Bearer entra-token-1',
      'Bearer entra-token-2',
    ]);
    expect(first!.headers['api-key']).toBeUndefined();
  });

  it('a missing deployment is a 404 whose hint names the deployment and the settings to check', async () => {
    server.script.push({
      kind: 'status',
      status: 404,
      body: '{"error": {"code": "DeploymentNotFound", "message": "The API deployment for this resource does not exist."}}',
    });
    const model = new AzureOpenAIChatModel({
      resourceURL: server.url,
      deployment: 'typo',
      modelId: 'gpt-4o',
      apiKey: 'k-1234',
    });
    const error = await model.generate({ messages, parameters }).catch((caught: unknown) => caught);
    expect(MedbenchError.is(error)).toBe(true);
    expect((error as MedbenchError).message).toContain('DeploymentNotFound');
    expect((error as MedbenchError).hint).toMatch(
      /deployment "typo".*"deployment", "baseURL" and "apiVersion"/,
    );
    expect((error as MedbenchError).retryable).toBe(false);
  });
});
