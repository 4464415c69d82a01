import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServers, startLlmTestServers } from '../../test/support/llm-test-server.js';
import { messagesText } from '../../test/support/providers/wire.js';
import type { ChatMessage, ChatModel, ChatRequest } from '../core/chat-model.js';
import { anthropicProvider } from './anthropic/descriptor.js';
import { azureOpenAIProvider } from './azure-openai/descriptor.js';
import { BedrockChatModel } from './bedrock/bedrock-chat-model.js';
import { GeminiChatModel } from './gemini/gemini-chat-model.js';
import { openAIProvider } from './openai/descriptor.js';
import { openAICompatibleProvider } from './openai-compatible/descriptor.js';
import type { ChatFactoryOptions } from './provider-descriptor.js';

const PROVIDERS = ['openai-compatible', 'azure-openai', 'anthropic', 'bedrock', 'gemini'] as const;
type Name = (typeof PROVIDERS)[number];
let servers: LlmTestServers<Name>;
const saved = { ...process.env };
beforeAll(async () => {
  servers = await startLlmTestServers(PROVIDERS, {
    fallback: () => ({ kind: 'answer', text: 'iron deficiency' }),
  });
  process.env.AWS_ACCESS_KEY_ID = 'AKIDCACHE';
  process.env.AWS_SECRET_ACCESS_KEY = 'cache-secret';
});
afterAll(async () => {
  process.env = saved;
  await servers.close();
});

const HAYSTACK = 'Discharge letter, line of notes.\n'.repeat(200);
const messages: ChatMessage[] = [
  { role: 'system', content: 'Answer from the record.' },
  { role: 'system', content: HAYSTACK },
  { role: 'user', content: `${HAYSTACK}Question: which anaemia?` },
];
const hint = {
  breakpoints: [
    { message: 1, offset: HAYSTACK.length },
    { message: 2, offset: HAYSTACK.length },
  ],
  key: 'b'.repeat(64),
};
const plain: ChatRequest = { messages, parameters: { temperature: 0, maxOutputTokens: 20 } };
const hinted: ChatRequest = { ...plain, promptCache: hint };

/** What a provider's descriptor makes of an endpoint (the adapter a run uses). */
function factoryOptions<Settings>(
  baseURL: string,
  modelId: string,
  settings: Partial<Settings> = {},
): ChatFactoryOptions<Settings> {
  return {
    baseURL,
    modelId,
    apiKey: 'sk-cache',
    apiKeyEnv: undefined,
    completions: false,
    headers: {},
    secretHeaders: {},
    query: undefined,
    settings,
    contextWindow: undefined,
    parameters: plain.parameters,
  };
}

/** The bodies a server received for the request without and with the hint. */
async function bodies(model: ChatModel, server: Name): Promise<Array<Record<string, unknown>>> {
  await model.generate(plain);
  await model.generate(hinted);
  return servers[server].requests.slice(-2).map((request) => request.body);
}

const serialised = (body: unknown) => JSON.stringify(body);

describe('Anthropic: cache_control on the text blocks that end at a breakpoint', () => {
  it('cuts the system prompt and the question there; the text is the same, byte for byte', async () => {
    const model = await anthropicProvider.createChat(
      factoryOptions(servers.anthropic.url, 'claude-sonnet-4-5'),
    );
    const [without, withHint] = await bodies(model, 'anthropic');
    expect(serialised(without)).not.toContain('cache_control');
    expect(without!.system).toBe(`Answer from the record.\n\n${HAYSTACK}`);
    expect(withHint!.system).toEqual([
      { type: 'text', text: 'Answer from the record.' },
      { type: 'text', text: `\n\n${HAYSTACK}`, cache_control: { type: 'ephemeral' } },
    ]);
    expect((withHint!.messages as Array<{ content: unknown }>)[0]!.content).toEqual([
      { type: 'text', text: HAYSTACK, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Question: which anaemia?' },
    ]);
    expect(messagesText(withHint!.system, withHint!.messages)).toBe(
      messagesText(without!.system, without!.messages),
    );
  });
});

describe('Bedrock: a cachePoint after each text that ends at a breakpoint, for the models that cache', () => {
  const bedrock = (modelId: string) =>
    new BedrockChatModel({ modelId, region: 'us-east-1', endpointURL: servers.bedrock.url });

  it.each([
    ['anthropic.claude-3-5-haiku-20241022-v1:0', true],
    ['us.anthropic.claude-sonnet-4-20250514-v1:0', true],
    ['amazon.nova-pro-v1:0', true],
    // Bedrock documents no prompt caching for these: no cache points.
    ['meta.llama3-1-70b-instruct-v1:0', false],
    ['anthropic.claude-3-haiku-20240307-v1:0', false],
    ['mistral.mistral-large-2407-v1:0', false],
  ])('%s caches: %s', async (modelId, caches) => {
    const [without, withHint] = await bodies(bedrock(modelId), 'bedrock');
    expect(serialised(without)).not.toContain('cachePoint');
    if (!caches) {
      expect(withHint).toEqual(without);
      return;
    }
    expect(withHint!.system).toEqual([
      { text: 'Answer from the record.' },
      { text: HAYSTACK },
      { cachePoint: { type: 'default' } },
    ]);
    expect((withHint!.messages as Array<{ content: unknown }>)[0]!.content).toEqual([
      { text: HAYSTACK },
      { cachePoint: { type: 'default' } },
      { text: 'Question: which anaemia?' },
    ]);
    expect(messagesText(withHint!.system, withHint!.messages)).toBe(
      messagesText(without!.system, without!.messages),
    );
  });

  it('a refusal of the cache points sends the request again without them, and none after', async () => {
    const model = bedrock('us.anthropic.claude-3-7-sonnet-20250219-v1:0');
    const message =
      'You invoked an unsupported model or your request did not allow prompt caching. See the documentation for more information.';
    servers.bedrock.script.push({ kind: 'status', status: 400, body: JSON.stringify({ message }) });
    const before = servers.bedrock.requests.length;
    expect((await model.generate(hinted)).text).toBe('iron deficiency');
    await model.generate(hinted);
    const sent = servers.bedrock.requests.slice(before).map((request) => serialised(request.body));
    expect(sent.map((body) => body.includes('cachePoint'))).toEqual([true, false, false]);
  });
});

describe('prompt_cache_key: OpenAI and Azure only', () => {
  it('OpenAI gets the key; the messages are as without', async () => {
    const model = await openAIProvider.createChat(
      factoryOptions(`${servers['openai-compatible'].url}/v1`, 'gpt-4o'),
    );
    const [without, withHint] = await bodies(model, 'openai-compatible');
    expect(without).not.toHaveProperty('prompt_cache_key');
    expect(withHint).toEqual({ ...without, prompt_cache_key: hint.key });
  });

  it('Azure OpenAI gets the key', async () => {
    const model = await azureOpenAIProvider.createChat(
      factoryOptions(servers['azure-openai'].url, 'gpt-4o', { deployment: 'gpt-4o-prod' }),
    );
    const [without, withHint] = await bodies(model, 'azure-openai');
    expect(without).not.toHaveProperty('prompt_cache_key');
    expect(withHint).toEqual({ ...without, prompt_cache_key: hint.key });
  });

  it('a deployment that refuses the key gets the request again without it, and never the key again', async () => {
    const server = servers['azure-openai'];
    const model = await azureOpenAIProvider.createChat(
      factoryOptions(server.url, 'DeepSeek-R1', { deployment: 'deepseek-r1' }),
    );
    const refusal = (message: string) => ({
      kind: 'status' as const,
      status: 400,
      body: JSON.stringify({ error: { code: 'unrecognized_request_argument', message } }),
    });
    // Another 400 is the run's to record: not sent again.
    server.script.push(refusal('Unsupported value: temperature'));
    const before = server.requests.length;
    await expect(model.generate(hinted)).rejects.toThrow(/HTTP 400/);
    expect(server.requests.length - before).toBe(1);
    server.script.push(refusal('Unrecognized request argument supplied: prompt_cache_key'));
    expect((await model.generate(hinted)).text).toBe('iron deficiency');
    await model.generate(hinted);
    const sent = server.requests.slice(before + 1).map((request) => request.body);
    expect(sent.map((body) => 'prompt_cache_key' in body)).toEqual([true, false, false]);
    expect(sent[1]).toEqual(sent[2]);
  });

  it('an OpenAI-compatible server (vLLM: automatic prefix caching) gets nothing', async () => {
    const model = await openAICompatibleProvider.createChat(
      factoryOptions(`${servers['openai-compatible'].url}/v1`, 'meta-llama/Llama-3.1-8B-Instruct'),
    );
    const [without, withHint] = await bodies(model, 'openai-compatible');
    expect(withHint).toEqual(without);
  });
});

describe('Gemini: implicit caching needs nothing', () => {
  it('sends the same body with or without the hint', async () => {
    const model = new GeminiChatModel({
      modelId: 'gemini-2.5-flash',
      apiKey: 'g-cache',
      baseURL: servers.gemini.url,
    });
    const [without, withHint] = await bodies(model, 'gemini');
    expect(withHint).toEqual(without);
  });
});
