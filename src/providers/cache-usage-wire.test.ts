import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServers, startLlmTestServers } from '../../test/support/llm-test-server.js';
import type { ChatModel } from '../core/chat-model.js';
import { AnthropicChatModel } from './anthropic/anthropic-chat-model.js';
import { AzureOpenAIChatModel } from './azure-openai/azure-openai-chat-model.js';
import { BedrockChatModel } from './bedrock/bedrock-chat-model.js';
import { GeminiChatModel } from './gemini/gemini-chat-model.js';
import { OpenAICompatibleChatModel } from './openai-compatible/openai-compatible-chat-model.js';
import { OpenAICompatibleCompletionModel } from './openai-compatible/openai-compatible-completion-model.js';

const PROVIDERS = ['openai-compatible', 'azure-openai', 'anthropic', 'bedrock', 'gemini'] as const;
type Provider = (typeof PROVIDERS)[number];
let servers: LlmTestServers<Provider>;
const saved = { ...process.env };
beforeAll(async () => {
  servers = await startLlmTestServers(PROVIDERS, { fallback: () => ({ kind: 'answer', text: 'Shuweng' }) });
  process.env.AWS_ACCESS_KEY_ID = 'AKIDCACHE';
  process.env.AWS_SECRET_ACCESS_KEY = 'cache-secret';
});
afterAll(async () => {
  process.env = saved;
  await servers.close();
});

// 400 characters: the servers count 100 prompt tokens; "Shuweng" is 2 output tokens.
const messages = [{ role: 'user' as const, content: 'x'.repeat(400) }];
const parameters = { temperature: 0, maxOutputTokens: 9 };

const ADAPTERS: Record<Provider, () => ChatModel> = {
  'openai-compatible': () =>
    new OpenAICompatibleChatModel({ baseURL: `${servers['openai-compatible'].url}/v1`, modelId: 'm' }),
  'azure-openai': () =>
    new AzureOpenAIChatModel({
      resourceURL: servers['azure-openai'].url,
      deployment: 'gpt-4o-prod',
      modelId: 'gpt-4o',
      apiKey: 'azure-x',
    }),
  anthropic: () =>
    new AnthropicChatModel({ baseURL: servers.anthropic.url, modelId: 'claude-sonnet-4', apiKey: 'k' }),
  bedrock: () =>
    new BedrockChatModel({
      modelId: 'anthropic.claude-sonnet-4',
      region: 'us-east-1',
      endpointURL: servers.bedrock.url,
    }),
  gemini: () =>
    new GeminiChatModel({ modelId: 'gemini-2.5-flash', apiKey: 'g', baseURL: servers.gemini.url }),
};

/** The usage an adapter reads of an answer whose server reports `cache` of its 100 prompt tokens. */
async function usageOf(provider: Provider, cache: { cachedTokens?: number; cacheWriteTokens?: number }) {
  servers[provider].script.push({ kind: 'answer', text: 'Shuweng', ...cache });
  return (await ADAPTERS[provider]().generate({ messages, parameters })).usage;
}

describe('cached and cache-written prompt tokens, as each provider reports them', () => {
  it('OpenAI-compatible (OpenAI, vLLM): prompt_tokens_details.cached_tokens, part of prompt_tokens', async () => {
    expect(await usageOf('openai-compatible', { cachedTokens: 64 })).toEqual({
      inputTokens: 100,
      outputTokens: 2,
      cachedInputTokens: 64,
    });
    expect(servers['openai-compatible'].requests).toHaveLength(1);
  });

  it('OpenAI completions (base models): the same field', async () => {
    servers['openai-compatible'].script.push({ kind: 'answer', text: 'Shuweng', cachedTokens: 32 });
    const model = new OpenAICompatibleCompletionModel({
      baseURL: `${servers['openai-compatible'].url}/v1`,
      modelId: 'base',
    });
    expect((await model.generate({ messages, parameters })).usage).toEqual({
      inputTokens: 100,
      outputTokens: 2,
      cachedInputTokens: 32,
    });
  });

  it('Azure OpenAI: the same field', async () => {
    expect(await usageOf('azure-openai', { cachedTokens: 96 })).toEqual({
      inputTokens: 100,
      outputTokens: 2,
      cachedInputTokens: 96,
    });
  });

  it('no cache figures: none recorded (not zero)', async () => {
    expect(await usageOf('openai-compatible', {})).toEqual({ inputTokens: 100, outputTokens: 2 });
    expect(await usageOf('gemini', {})).toEqual({ inputTokens: 100, outputTokens: 2 });
  });

  it('Anthropic: input_tokens + cache_read_input_tokens + cache_creation_input_tokens are the prompt', async () => {
    expect(await usageOf('anthropic', { cachedTokens: 60, cacheWriteTokens: 30 })).toEqual({
      inputTokens: 100,
      outputTokens: 2,
      cachedInputTokens: 60,
      cacheWriteTokens: 30,
    });
    const sent = servers.anthropic.requests.at(-1)!;
    expect(sent.path).toBe('/v1/messages');
    // A first request writes the whole prefix.
    expect(await usageOf('anthropic', { cachedTokens: 0, cacheWriteTokens: 90 })).toMatchObject({
      inputTokens: 100,
      cachedInputTokens: 0,
      cacheWriteTokens: 90,
    });
  });

  it('Bedrock Converse: inputTokens + cacheReadInputTokens + cacheWriteInputTokens are the prompt', async () => {
    expect(await usageOf('bedrock', { cachedTokens: 70, cacheWriteTokens: 20 })).toEqual({
      inputTokens: 100,
      outputTokens: 2,
      cachedInputTokens: 70,
      cacheWriteTokens: 20,
    });
    expect(servers.bedrock.requests.at(-1)!.path).toBe('/model/anthropic.claude-sonnet-4/converse');
  });

  it('Gemini: cachedContentTokenCount, part of promptTokenCount', async () => {
    expect(await usageOf('gemini', { cachedTokens: 75 })).toEqual({
      inputTokens: 100,
      outputTokens: 2,
      cachedInputTokens: 75,
    });
  });
});
