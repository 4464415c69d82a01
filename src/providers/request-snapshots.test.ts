import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsTestCredentials } from '../../test/support/aws-test-credentials.js';
import { onGoogleCloudVm } from '../../test/support/gce-metadata-server.js';
import {
  type LlmTestServers,
  PROVIDER_NAMES,
  type ProviderName,
  startLlmTestServers,
} from '../../test/support/llm-test-server.js';
import { requestSnapshot } from '../../test/support/request-snapshot.js';
import type { ChatModel, ChatRequest } from '../core/chat-model.js';
import { AnthropicChatModel } from './anthropic/anthropic-chat-model.js';
import { AzureOpenAIChatModel } from './azure-openai/azure-openai-chat-model.js';
import { BedrockChatModel } from './bedrock/bedrock-chat-model.js';
import { GeminiChatModel } from './gemini/gemini-chat-model.js';
import { OllamaChatModel } from './ollama/ollama-chat-model.js';
import { openAIProvider } from './openai/descriptor.js';
import { OpenAICompatibleChatModel } from './openai-compatible/openai-compatible-chat-model.js';
import { OpenAICompatibleCompletionModel } from './openai-compatible/openai-compatible-completion-model.js';

/**
 * What each chat adapter sends for one fixed prompt and fixed generation settings, compared with a
 * committed snapshot (__snapshots__/requests/): a change in what medbench sends shows in review.
 * Each snapshot was checked by eye against the provider's API reference.
 */
let servers: LlmTestServers<ProviderName>;
awsTestCredentials('AKIDSNAPSHOT', 'snapshot-secret');
// Vertex AI signs in with Application Default Credentials: here a Google Cloud VM's service account.
onGoogleCloudVm();
beforeAll(async () => {
  servers = await startLlmTestServers(PROVIDER_NAMES, { awsSecretAccessKey: 'snapshot-secret' });
});
afterAll(() => servers.close());

/** A system prompt, a worked example (a shot) and the question. */
const request: ChatRequest = {
  messages: [
    { role: 'system', content: 'You are a careful clinician. Answer with JSON only.' },
    { role: 'user', content: 'Fasting glucose 8.1 mmol/L on two days. Diagnosis?' },
    { role: 'assistant', content: '{"answer": "type 2 diabetes"}' },
    { role: 'user', content: 'Ferritin 8 µg/L, haemoglobin 98 g/L. Diagnosis?' },
  ],
  parameters: { temperature: 0, maxOutputTokens: 256, topP: 0.9, stop: ['\n\n'] },
};

/** Each chat adapter, the server of its provider, and its snapshot's name. */
const ADAPTERS: Array<
  [route: string, provider: ProviderName, snapshot: string, create: (url: string) => ChatModel]
> = [
  [
    'openai-compatible chat: POST {base}/chat/completions',
    'openai-compatible',
    'openai-compatible-chat',
    (url) =>
      new OpenAICompatibleChatModel({
        baseURL: `${url}/v1`,
        modelId: 'meta-llama/Llama-3.1-8B-Instruct',
        apiKey: 'sk-snapshot',
      }),
  ],
  [
    'openai-compatible completions (a base model): POST {base}/completions',
    'openai-compatible',
    'openai-compatible-completions',
    (url) =>
      new OpenAICompatibleCompletionModel({
        baseURL: `${url}/v1`,
        modelId: 'meta-llama/Llama-3.1-8B',
        apiKey: 'sk-snapshot',
      }),
  ],
  [
    'azure-openai: POST /openai/deployments/{deployment}/chat/completions?api-version',
    'azure-openai',
    'azure-openai',
    (url) =>
      new AzureOpenAIChatModel({
        resourceURL: url,
        deployment: 'gpt-4o-prod',
        modelId: 'gpt-4o',
        apiKey: 'azure-snapshot',
      }),
  ],
  [
    'anthropic: POST /v1/messages',
    'anthropic',
    'anthropic',
    (url) =>
      new AnthropicChatModel({
        baseURL: url,
        modelId: 'claude-sonnet-4-20250514',
        apiKey: 'sk-ant-snapshot',
      }),
  ],
  [
    'bedrock: POST /model/{modelId}/converse, signed with SigV4',
    'bedrock',
    'bedrock',
    (url) =>
      new BedrockChatModel({
        modelId: 'anthropic.claude-3-5-haiku-20241022-v1:0',
        region: 'eu-central-1',
        endpointURL: url,
      }),
  ],
  [
    'gemini: POST /v1/models/{model}:generateContent',
    'gemini',
    'gemini',
    (url) => new GeminiChatModel({ modelId: 'gemini-2.5-flash', apiKey: 'gemini-snapshot', baseURL: url }),
  ],
  [
    'vertex-ai: POST /v1beta1/projects/{project}/locations/{location}/publishers/google/models/{model}:generateContent',
    'vertex-ai',
    'vertex-ai',
    (url) =>
      new GeminiChatModel({
        modelId: 'gemini-2.5-flash',
        vertex: { project: 'clinical-eval', location: 'europe-west4' },
        baseURL: url,
      }),
  ],
  [
    'ollama: POST /api/chat',
    'ollama',
    'ollama',
    (url) => new OllamaChatModel({ baseURL: url, modelId: 'llama3.1:8b', contextWindow: 32768 }),
  ],
];

describe('the request each chat adapter sends, against its snapshot', () => {
  it.each(ADAPTERS)('%s', async (_route, provider, snapshot, create) => {
    const server = servers[provider];
    await create(server.url).generate(request);
    await expect(requestSnapshot(server.requests.at(-1)!)).toMatchFileSnapshot(
      `./__snapshots__/requests/${snapshot}.json`,
    );
  });
});

/**
 * The same request with a prompt cache hint: the end of the system prompt and a cut inside the
 * question (after "Ferritin 8 µg/L, "). Anthropic gets text blocks with cache_control, Bedrock's
 * Claude cachePoint blocks, OpenAI and Azure a prompt_cache_key.
 */
const hinted: ChatRequest = {
  ...request,
  promptCache: {
    breakpoints: [
      { message: 0, offset: request.messages[0]!.content.length },
      { message: 3, offset: 'Ferritin 8 µg/L, '.length },
    ],
    key: 'a3f1c2d4e5b6a79801122334455667788990aabbccddeeff0011223344556677',
  },
};

const HINTED: Array<[provider: ProviderName, snapshot: string, create: (url: string) => Promise<ChatModel>]> =
  [
    [
      'anthropic',
      'anthropic-prompt-cache',
      async (url) => ADAPTERS.find(([, name]) => name === 'anthropic')![3](url),
    ],
    [
      'bedrock',
      'bedrock-prompt-cache',
      async (url) => ADAPTERS.find(([, name]) => name === 'bedrock')![3](url),
    ],
    [
      'azure-openai',
      'azure-openai-prompt-cache',
      async (url) => ADAPTERS.find(([, name]) => name === 'azure-openai')![3](url),
    ],
    [
      'openai-compatible',
      'openai-prompt-cache',
      (url) =>
        openAIProvider.createChat({
          baseURL: `${url}/v1`,
          modelId: 'gpt-4o',
          apiKey: 'sk-snapshot',
          apiKeyEnv: undefined,
          completions: false,
          headers: {},
          secretHeaders: {},
          query: undefined,
          settings: {},
          contextWindow: undefined,
          parameters: request.parameters,
        }),
    ],
  ];

describe('the request with a prompt cache hint, against its snapshot', () => {
  it.each(HINTED)('%s', async (provider, snapshot, create) => {
    const server = servers[provider];
    await (await create(server.url)).generate(hinted);
    await expect(requestSnapshot(server.requests.at(-1)!)).toMatchFileSnapshot(
      `./__snapshots__/requests/${snapshot}.json`,
    );
  });
});
