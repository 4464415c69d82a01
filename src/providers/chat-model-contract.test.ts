import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServers, startLlmTestServers } from '../../test/support/llm-test-server.js';
import type { ChatModel } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import { AnthropicChatModel } from './anthropic/anthropic-chat-model.js';
import { AzureOpenAIChatModel } from './azure-openai/azure-openai-chat-model.js';
import { BedrockChatModel } from './bedrock/bedrock-chat-model.js';
import { GeminiChatModel } from './gemini/gemini-chat-model.js';
import { OllamaChatModel } from './ollama/ollama-chat-model.js';
import { OpenAICompatibleChatModel } from './openai-compatible/openai-compatible-chat-model.js';
import { OpenAICompatibleCompletionModel } from './openai-compatible/openai-compatible-completion-model.js';

const PROVIDERS = ['openai-compatible', 'anthropic', 'azure-openai', 'ollama', 'gemini', 'bedrock'] as const;
let servers: LlmTestServers<(typeof PROVIDERS)[number]>;
beforeAll(async () => {
  servers = await startLlmTestServers(PROVIDERS);
});
afterAll(() => servers.close());

const parameters = { temperature: 0, maxOutputTokens: 64 };

async function failure(model: ChatModel, signal?: AbortSignal): Promise<MedbenchError> {
  try {
    await model.generate({
      messages: [{ role: 'user', content: 'x' }],
      parameters,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    expect(MedbenchError.is(error)).toBe(true);
    return error as MedbenchError;
  }
  throw new Error('expected a failure');
}

/** The contract every chat provider passes against a server speaking its protocol. */
function chatModelContract(
  name: string,
  provider: (typeof PROVIDERS)[number],
  create: () => ChatModel,
  authHint = /TEST_KEY/,
) {
  describe(`${name} chat model contract`, () => {
    const server = () => servers[provider];
    it('returns the text and usage of a completion', async () => {
      server().script.push({ kind: 'answer', text: '{"answer": "Shuweng"}' });
      const response = await create().generate({ messages: [{ role: 'user', content: 'Who?' }], parameters });
      expect(response.text).toBe('{"answer": "Shuweng"}');
      expect(response.usage?.outputTokens).toBeGreaterThan(0);
    });

    it('reads the model the answer names (Bedrock’s Converse names none)', async () => {
      server().script.push({ kind: 'answer', text: 'ok', model: 'm-2026-01-15' });
      const response = await create().generate({ messages: [{ role: 'user', content: 'Who?' }], parameters });
      expect(response.modelVersion).toBe(provider === 'bedrock' ? undefined : 'm-2026-01-15');
    });

    it('maps 401 to a non-retryable auth error with a hint', async () => {
      server().script.push({ kind: 'status', status: 401 });
      const error = await failure(create());
      expect(error.code).toBe('ENDPOINT_AUTH');
      expect(error.retryable).toBe(false);
      expect(error.hint).toMatch(authHint);
    });

    it('maps 429 to a retryable error carrying Retry-After', async () => {
      server().script.push({ kind: 'status', status: 429, retryAfter: '2' });
      const error = await failure(create());
      expect([error.code, error.retryable, error.retryAfterMs]).toEqual(['ENDPOINT_HTTP', true, 2000]);
    });

    it('maps 500 to retryable and 400 to not retryable', async () => {
      server().script.push({ kind: 'status', status: 500 });
      expect((await failure(create())).retryable).toBe(true);
      server().script.push({ kind: 'status', status: 400 });
      expect((await failure(create())).retryable).toBe(false);
    });

    it('maps a malformed body to a retryable bad-response error', async () => {
      server().script.push({ kind: 'malformed' });
      const error = await failure(create());
      expect([error.code, error.retryable]).toEqual(['ENDPOINT_BAD_RESPONSE', true]);
    });

    it('maps a timeout to a retryable timeout error', async () => {
      server().script.push({ kind: 'hang' });
      const error = await failure(create(), AbortSignal.timeout(100));
      expect([error.code, error.retryable]).toEqual(['ENDPOINT_TIMEOUT', true]);
    });
  });
}

chatModelContract(
  'OpenAI-compatible',
  'openai-compatible',
  () =>
    new OpenAICompatibleChatModel({
      baseURL: `${servers['openai-compatible'].url}/v1`,
      modelId: 'test-model',
      apiKey: 'sk-secret',
      apiKeyEnv: 'TEST_KEY',
    }),
);
chatModelContract(
  'OpenAI-compatible completions (base models)',
  'openai-compatible',
  () =>
    new OpenAICompatibleCompletionModel({
      baseURL: `${servers['openai-compatible'].url}/v1`,
      modelId: 'base-model',
      apiKey: 'sk-secret',
      apiKeyEnv: 'TEST_KEY',
    }),
);
chatModelContract(
  'Anthropic',
  'anthropic',
  () =>
    new AnthropicChatModel({
      baseURL: servers.anthropic.url,
      modelId: 'claude-test',
      apiKey: 'sk-ant-secret',
      apiKeyEnv: 'TEST_KEY',
    }),
);

chatModelContract(
  'Azure OpenAI',
  'azure-openai',
  () =>
    new AzureOpenAIChatModel({
      resourceURL: servers['azure-openai'].url,
      deployment: 'gpt-4o-prod',
      modelId: 'gpt-4o',
      apiKey: 'azure-secret',
      apiKeyEnv: 'TEST_KEY',
    }),
);
chatModelContract(
  'Ollama',
  'ollama',
  () =>
    new OllamaChatModel({
      baseURL: servers.ollama.url,
      modelId: 'llama3.1:8b',
      contextWindow: 32768,
      apiKey: 'ollama-secret',
      apiKeyEnv: 'TEST_KEY',
    }),
);

chatModelContract(
  'Google Gemini API',
  'gemini',
  () =>
    new GeminiChatModel({
      modelId: 'gemini-2.5-flash',
      apiKey: 'gemini-secret',
      apiKeyEnv: 'TEST_KEY',
      baseURL: servers.gemini.url,
    }),
);

describe('Bedrock, with credentials from the AWS environment chain', () => {
  const saved = { ...process.env };
  beforeAll(() => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIDCONTRACT';
    process.env.AWS_SECRET_ACCESS_KEY = 'contract-secret';
    // Every request's SigV4 signature is checked with the secret.
    servers.bedrock.awsSecretAccessKey = 'contract-secret';
  });
  afterAll(() => {
    process.env = saved;
  });
  chatModelContract(
    'Amazon Bedrock (Converse)',
    'bedrock',
    () =>
      new BedrockChatModel({
        modelId: 'amazon.nova-pro-v1:0',
        region: 'us-east-1',
        endpointURL: servers.bedrock.url,
      }),
    /AWS_ACCESS_KEY_ID/,
  );
});

describe('what the servers receive', () => {
  it('OpenAI-compatible: model, messages, temperature, max_tokens and a bearer key', async () => {
    const server = servers['openai-compatible'];
    const model = new OpenAICompatibleChatModel({
      baseURL: `${server.url}/v1/`,
      modelId: 'm',
      apiKey: 'sk-secret',
    });
    await model.generate({ messages: [{ role: 'user', content: 'hello' }], parameters });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-secret');
    expect(request.body).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hello' }],
      temperature: 0,
      max_tokens: 64,
      stream: false,
    });
  });

  it('Anthropic: x-api-key, version header, system split out of messages', async () => {
    const server = servers.anthropic;
    const model = new AnthropicChatModel({ baseURL: server.url, modelId: 'claude-test', apiKey: 'sk-ant' });
    await model.generate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello' },
      ],
      parameters,
    });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('sk-ant');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.body).toEqual({
      model: 'claude-test',
      max_tokens: 64,
      temperature: 0,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hello' }],
    });
  });

  it('completions: a base model gets system prompt, shots and query as one plain-text prompt', async () => {
    const server = servers['openai-compatible'];
    const model = new OpenAICompatibleCompletionModel({ baseURL: `${server.url}/v1`, modelId: 'base' });
    await model.generate({
      messages: [
        { role: 'system', content: 'Summarise.' },
        { role: 'user', content: 'Shot?' },
        { role: 'assistant', content: 'Shot.' },
        { role: 'user', content: 'Query?' },
      ],
      parameters,
    });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/v1/completions');
    expect(request.body).toEqual({
      model: 'base',
      prompt: 'Summarise.\n\nShot?\n\nShot.\n\nQuery?',
      temperature: 0,
      max_tokens: 64,
    });
  });

  it('an unreachable endpoint is a clear, named error', async () => {
    const model = new OpenAICompatibleChatModel({ baseURL: 'http://127.0.0.1:9/v1', modelId: 'm' });
    const error = await failure(model);
    expect(error.code).toBe('ENDPOINT_UNREACHABLE');
    expect(error.message).toContain('http://127.0.0.1:9/v1/chat/completions');
  });
});
