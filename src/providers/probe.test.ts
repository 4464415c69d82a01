import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type LlmTestServers,
  startLlmTestServer,
  startLlmTestServers,
} from '../../test/support/llm-test-server.js';
import { MedbenchError } from '../core/errors.js';
import { AnthropicChatModel } from './anthropic/anthropic-chat-model.js';
import { AzureOpenAIChatModel } from './azure-openai/azure-openai-chat-model.js';
import { BedrockChatModel } from './bedrock/bedrock-chat-model.js';
import { GeminiChatModel } from './gemini/gemini-chat-model.js';
import { OpenAICompatibleChatModel } from './openai-compatible/openai-compatible-chat-model.js';

const PROVIDERS = ['openai-compatible', 'anthropic', 'gemini', 'azure-openai', 'bedrock'] as const;
let servers: LlmTestServers<(typeof PROVIDERS)[number]>;
beforeAll(async () => {
  servers = await startLlmTestServers(PROVIDERS);
});
beforeEach(() => {
  for (const provider of PROVIDERS) {
    servers[provider].servedModels = undefined;
    servers[provider].probeStatus = undefined;
    servers[provider].probes.length = 0;
  }
});
afterAll(() => servers.close());

/** Every GET of both servers the outage test probes gets `status`. */
function setProbeStatus(status: number) {
  servers['openai-compatible'].probeStatus = status;
  servers.anthropic.probeStatus = status;
}

async function refusal(promise: Promise<unknown>): Promise<MedbenchError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(MedbenchError.is(error)).toBe(true);
  return error as MedbenchError;
}

const openAI = (modelId: string, modelList?: 'complete' | 'partial') =>
  new OpenAICompatibleChatModel({
    baseURL: `${servers['openai-compatible'].url}/v1`,
    modelId,
    apiKey: 'sk-probe',
    ...(modelList ? { modelList } : {}),
  });

describe('one free request before a run', () => {
  it('vLLM: GET /v1/models gives the served window (max_model_len)', async () => {
    const server = servers['openai-compatible'];
    server.servedModels = [{ id: 'meta-llama/Llama-3.1-8B-Instruct', max_model_len: 32768 }];
    expect(await openAI('meta-llama/Llama-3.1-8B-Instruct').probe()).toEqual({ maxContextTokens: 32768 });
    expect(server.probes.map((probe) => [probe.path, probe.headers.authorization])).toEqual([
      ['/v1/models', 'Bearer sk-probe'],
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('a name the server does not list: a notice on a compatible server, an error on OpenAI', async () => {
    const server = servers['openai-compatible'];
    server.servedModels = [{ id: 'gpt-4o' }, { id: 'gpt-4o-mini' }];
    expect(await openAI('gpt4o').probe()).toEqual({
      notice: expect.stringContaining('lists gpt-4o, gpt-4o-mini; "gpt4o" is not among them'),
    });
    const error = await refusal(openAI('gpt4o', 'complete').probe());
    expect([error.code, error.message, error.hint]).toEqual([
      'MODEL_NOT_FOUND',
      expect.stringContaining('has no model "gpt4o"'),
      expect.stringContaining('gpt-4o, gpt-4o-mini'),
    ]);
  });

  it('a refused key fails the probe; a server without the route is left alone', async () => {
    const server = servers['openai-compatible'];
    server.probeStatus = 401;
    expect((await refusal(openAI('m').probe())).code).toBe('ENDPOINT_AUTH');
    server.probeStatus = undefined;
    expect(await openAI('m', 'complete').probe()).toEqual({});
  });

  it('an outage (a server error, no server) fails the probe; a missing route or a refusal of the probe does not', async () => {
    const anthropic = () =>
      new AnthropicChatModel({ baseURL: servers.anthropic.url, modelId: 'c', apiKey: 'sk-ant-probe' });
    for (const status of [500, 503]) {
      setProbeStatus(status);
      for (const probed of [openAI('m'), anthropic()])
        expect((await refusal(probed.probe())).status).toBe(status);
    }
    for (const status of [400, 405, 429]) {
      setProbeStatus(status);
      expect(await openAI('m').probe()).toEqual({});
      expect(await anthropic().probe()).toEqual({});
    }
    setProbeStatus(404);
    expect(await openAI('m').probe()).toEqual({});
    const closed = await startLlmTestServer();
    await closed.close();
    const unreachable = [
      new OpenAICompatibleChatModel({ baseURL: `${closed.url}/v1`, modelId: 'm' }),
      new AnthropicChatModel({ baseURL: closed.url, modelId: 'c', apiKey: 'sk-ant-probe' }),
    ];
    for (const probed of unreachable)
      expect((await refusal(probed.probe())).code).toBe('ENDPOINT_UNREACHABLE');
  });

  it('Anthropic: GET /v1/models/{id} with its headers; an unknown id is MODEL_NOT_FOUND', async () => {
    const server = servers.anthropic;
    server.servedModels = [{ id: 'claude-3-5-haiku-20241022' }];
    const anthropic = (modelId: string) =>
      new AnthropicChatModel({ baseURL: server.url, modelId, apiKey: 'sk-ant-probe' });
    expect(await anthropic('claude-3-5-haiku-20241022').probe()).toEqual({});
    const probe = server.probes.at(-1)!;
    expect([probe.path, probe.headers['x-api-key'], probe.headers['anthropic-version']]).toEqual([
      '/v1/models/claude-3-5-haiku-20241022',
      'sk-ant-probe',
      '2023-06-01',
    ]);
    expect((await refusal(anthropic('claude-9').probe())).code).toBe('MODEL_NOT_FOUND');
  });

  it('Gemini: models.get declares the input token limit; an unknown model is MODEL_NOT_FOUND', async () => {
    const server = servers.gemini;
    server.servedModels = [{ id: 'gemini-2.5-flash', inputTokenLimit: 1048576 }];
    const gemini = (modelId: string) =>
      new GeminiChatModel({ modelId, apiKey: 'k-probe', baseURL: server.url });
    expect(await gemini('gemini-2.5-flash').probe()).toEqual({ maxContextTokens: 1048576 });
    expect(server.probes.at(-1)!.path).toBe('/v1/models/gemini-2.5-flash');
    const error = await refusal(gemini('gemini-9').probe());
    expect([error.code, error.hint]).toEqual(['MODEL_NOT_FOUND', expect.stringContaining('"gemini-9"')]);
  });

  it('Azure: one chat request of one token; a missing deployment is MODEL_NOT_FOUND naming it', async () => {
    const server = servers['azure-openai'];
    const azure = new AzureOpenAIChatModel({
      resourceURL: server.url,
      deployment: 'typo',
      modelId: 'gpt-4o',
      apiKey: 'k-azure',
    });
    // Azure's documented 404 for a deployment it does not have: DeploymentNotFound.
    server.script.push({ kind: 'status', status: 404 });
    const error = await refusal(azure.probe());
    expect([error.code, error.hint]).toEqual([
      'MODEL_NOT_FOUND',
      expect.stringContaining('deployment "typo"'),
    ]);
    expect(server.requests.at(-1)!.body).toMatchObject({ max_tokens: 1 });
  });

  it('Bedrock: CountTokens on one word; a model the region lacks is MODEL_NOT_FOUND', async () => {
    const server = servers.bedrock;
    const saved = { ...process.env };
    process.env.AWS_ACCESS_KEY_ID = 'AKIDPROBE';
    process.env.AWS_SECRET_ACCESS_KEY = 'probe-secret';
    server.awsSecretAccessKey = 'probe-secret';
    try {
      server.servedModels = [{ id: 'anthropic.claude-3-5-haiku-20241022-v1:0' }];
      const bedrock = (modelId: string) =>
        new BedrockChatModel({ modelId, region: 'eu-central-1', endpointURL: server.url });
      expect(await bedrock('anthropic.claude-3-5-haiku-20241022-v1:0').probe()).toEqual({});
      // An id Bedrock does not know: HTTP 400 ValidationException "The provided model identifier is invalid."
      const invalid = await refusal(bedrock('anthropic.claude-typo').probe());
      expect([invalid.code, invalid.message, invalid.hint]).toEqual([
        'MODEL_NOT_FOUND',
        expect.stringContaining('The provided model identifier is invalid.'),
        expect.stringMatching(/Check "model" \("anthropic\.claude-typo".*region eu-central-1/),
      ]);
      // A foundation model the region cannot resolve: HTTP 404 ResourceNotFoundException.
      server.bedrockUnknownModel = 404;
      const error = await refusal(bedrock('anthropic.claude-typo').probe());
      expect([error.code, error.hint]).toEqual([
        'MODEL_NOT_FOUND',
        expect.stringContaining('"anthropic.claude-typo"'),
      ]);
    } finally {
      server.bedrockUnknownModel = 400;
      process.env = saved;
    }
  });
});
