import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsTestCredentials } from '../../test/support/aws-test-credentials.js';
import { type LlmTestServers, startLlmTestServers } from '../../test/support/llm-test-server.js';
import { AnthropicChatModel } from './anthropic/anthropic-chat-model.js';
import { BedrockChatModel } from './bedrock/bedrock-chat-model.js';
import { GeminiChatModel } from './gemini/gemini-chat-model.js';
import { OpenAICompatibleChatModel } from './openai-compatible/openai-compatible-chat-model.js';

const PROVIDERS = ['anthropic', 'openai-compatible', 'bedrock', 'gemini'] as const;
let servers: LlmTestServers<(typeof PROVIDERS)[number]>;
awsTestCredentials('AKIDCOUNT', 'count-secret');
beforeAll(async () => {
  servers = await startLlmTestServers(PROVIDERS, { awsSecretAccessKey: 'count-secret' });
});
afterAll(() => servers.close());

const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Where is the needle?' },
];
// "Be brief.\nWhere is the needle?" is 30 characters: the server counts 8 tokens.
const expected = 8;

describe("each provider's own count-tokens route", () => {
  it('Anthropic: POST /v1/messages/count_tokens with model, system and messages', async () => {
    const server = servers.anthropic;
    const model = new AnthropicChatModel({
      baseURL: server.url,
      modelId: 'claude-3-5-haiku-20241022',
      apiKey: 'sk-ant',
    });
    expect(model.capabilities.countTokens).toBe(true);
    expect(await model.countTokens(messages)).toBe(expected);
    expect(server.counts.at(-1)).toMatchObject({
      path: '/v1/messages/count_tokens',
      body: { model: 'claude-3-5-haiku-20241022', system: 'Be brief.', messages: [messages[1]] },
    });
    expect(server.counts.at(-1)!.headers['x-api-key']).toBe('sk-ant');
  });

  it("vLLM: POST /tokenize at the server's root with the messages and the generation prompt", async () => {
    const server = servers['openai-compatible'];
    const model = new OpenAICompatibleChatModel({ baseURL: `${server.url}/v1`, modelId: 'llama' });
    expect(model.capabilities.countTokens).toBe(true);
    expect(await model.countTokens(messages)).toBe(expected);
    expect(server.counts.at(-1)).toMatchObject({
      path: '/tokenize',
      body: { model: 'llama', messages, add_generation_prompt: true },
    });
    // OpenAI's own API has no such route.
    expect(
      new OpenAICompatibleChatModel({ baseURL: server.url, modelId: 'gpt-4o', serverExtensions: false })
        .capabilities.countTokens,
    ).toBe(false);
  });

  it('Bedrock: CountTokens with the Converse input', async () => {
    const server = servers.bedrock;
    const model = new BedrockChatModel({
      modelId: 'anthropic.claude-3-5-haiku-20241022-v1:0',
      region: 'us-east-1',
      endpointURL: server.url,
    });
    expect(await model.countTokens(messages)).toBe(expected);
    expect(server.counts.at(-1)).toMatchObject({
      path: '/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/count-tokens',
      body: {
        input: {
          converse: {
            messages: [{ role: 'user', content: [{ text: 'Where is the needle?' }] }],
            system: [{ text: 'Be brief.' }],
          },
        },
      },
    });
  });

  it('Gemini: countTokens', async () => {
    const server = servers.gemini;
    const model = new GeminiChatModel({ modelId: 'gemini-2.5-flash', apiKey: 'k', baseURL: server.url });
    const counted = await model.countTokens([messages[1]!]);
    expect(server.counts.at(-1)!.path).toBe('/v1/models/gemini-2.5-flash:countTokens');
    expect(counted).toBe(Math.ceil('Where is the needle?'.length / 4));
  });
});
