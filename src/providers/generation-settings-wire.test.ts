import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServers, startLlmTestServers } from '../../test/support/llm-test-server.js';
import type { GenerationParameters } from '../core/chat-model.js';
import { AnthropicChatModel } from './anthropic/anthropic-chat-model.js';
import { AzureOpenAIChatModel } from './azure-openai/azure-openai-chat-model.js';
import { BedrockChatModel } from './bedrock/bedrock-chat-model.js';
import { GeminiChatModel } from './gemini/gemini-chat-model.js';
import { OllamaChatModel } from './ollama/ollama-chat-model.js';
import { OpenAICompatibleChatModel } from './openai-compatible/openai-compatible-chat-model.js';
import { OpenAICompatibleCompletionModel } from './openai-compatible/openai-compatible-completion-model.js';

const PROVIDERS = ['openai-compatible', 'azure-openai', 'anthropic', 'bedrock', 'gemini', 'ollama'] as const;
let servers: LlmTestServers<(typeof PROVIDERS)[number]>;
const saved = { ...process.env };
beforeAll(async () => {
  servers = await startLlmTestServers(PROVIDERS, { fallback: () => ({ kind: 'answer', text: 'Shuweng' }) });
  process.env.AWS_ACCESS_KEY_ID = 'AKIDSETTINGS';
  process.env.AWS_SECRET_ACCESS_KEY = 'settings-secret';
});
afterAll(async () => {
  process.env = saved;
  await servers.close();
});

const messages = [{ role: 'user' as const, content: 'Who?' }];
/** Every sampling setting, as the config gives them. */
const sampling: GenerationParameters = {
  temperature: 0.2,
  maxOutputTokens: 50,
  topP: 0.9,
  seed: 7,
  stop: ['<|eot_id|>', '\nQuestion:'],
  frequencyPenalty: 0.5,
  presencePenalty: -0.25,
};

/** `sampling` as OpenAI names its fields. */
const OPENAI_SAMPLING = {
  temperature: 0.2,
  max_tokens: 50,
  top_p: 0.9,
  seed: 7,
  stop: ['<|eot_id|>', '\nQuestion:'],
  frequency_penalty: 0.5,
  presence_penalty: -0.25,
};

function openAI(baseURL = `${servers['openai-compatible'].url}/v1`) {
  return new OpenAICompatibleChatModel({ baseURL, modelId: 'm', apiKey: 'sk-x' });
}

function lastBody(provider: (typeof PROVIDERS)[number] = 'openai-compatible'): Record<string, unknown> {
  return servers[provider].requests.at(-1)!.body;
}

// OpenAI's chat and completions references: top_p, seed, stop, frequency_penalty, presence_penalty;
// reasoning models: max_completion_tokens (reasoning included), reasoning_effort, no temperature.
describe('OpenAI-style bodies (OpenAI, Azure, vLLM, SGLang)', () => {
  it('chat: every sampling setting under its OpenAI name, extraBody merged', async () => {
    await openAI().generate({ messages, parameters: { ...sampling, extraBody: { top_k: 20, min_p: 0.05 } } });
    expect(lastBody()).toEqual({
      model: 'm',
      messages,
      ...OPENAI_SAMPLING,
      stream: false,
      top_k: 20,
      min_p: 0.05,
    });
  });

  it('completions (base models): the same fields', async () => {
    const model = new OpenAICompatibleCompletionModel({
      baseURL: `${servers['openai-compatible'].url}/v1`,
      modelId: 'base',
    });
    await model.generate({ messages, parameters: sampling });
    expect(lastBody()).toEqual({
      model: 'base',
      prompt: 'Who?',
      ...OPENAI_SAMPLING,
    });
  });

  it('a reasoning model: max_completion_tokens and reasoning_effort, no temperature or max_tokens; its reasoning tokens apart', async () => {
    servers['azure-openai'].script.push({
      kind: 'answer',
      text: 'Shuweng',
      reasoning: 'The note says…',
      reasoningTokens: 120,
    });
    const model = new AzureOpenAIChatModel({
      resourceURL: servers['azure-openai'].url,
      deployment: 'o4-mini-prod',
      modelId: 'o4-mini',
      apiKey: 'azure-x',
    });
    const response = await model.generate({
      messages,
      // A protocol's stop sequences (generate medisumqa's) are not sent: reasoning models refuse them.
      parameters: {
        temperature: 1,
        maxOutputTokens: 4000,
        reasoningModel: true,
        reasoningEffort: 'low',
        stop: ['<|eot_id|>'],
      },
    });
    expect(servers['azure-openai'].requests.at(-1)!.path).toMatch(
      /^\/openai\/deployments\/o4-mini-prod\/chat\/completions\?/,
    );
    expect(lastBody('azure-openai')).toEqual({
      messages,
      max_completion_tokens: 4000,
      reasoning_effort: 'low',
      stream: false,
    });
    // completion_tokens counts the reasoning (2 answer tokens + 120).
    expect(response.usage).toEqual({ inputTokens: 1, outputTokens: 122, reasoningTokens: 120 });
  });

  it("vLLM's reasoning parser: reasoning_content is read apart from the answer", async () => {
    servers['openai-compatible'].script.push({
      kind: 'answer',
      text: 'Shuweng',
      reasoning: 'Let me look at the note.',
    });
    const response = await openAI().generate({
      messages,
      parameters: { temperature: 0, maxOutputTokens: 9 },
    });
    expect(response.text).toBe('Shuweng');
    expect(response.reasoning).toBe('Let me look at the note.');
  });
});

// Anthropic Messages reference: top_p, stop_sequences; thinking {type: "enabled", budget_tokens}
// with max_tokens above the budget and no temperature; thinking blocks before the text block.
describe('Anthropic', () => {
  const model = () =>
    new AnthropicChatModel({ baseURL: servers.anthropic.url, modelId: 'claude-sonnet-4', apiKey: 'k' });

  it('top_p and stop_sequences', async () => {
    await model().generate({
      messages,
      parameters: { temperature: 0, maxOutputTokens: 50, topP: 0.9, stop: ['END'] },
    });
    expect(lastBody('anthropic')).toEqual({
      model: 'claude-sonnet-4',
      max_tokens: 50,
      temperature: 0,
      top_p: 0.9,
      stop_sequences: ['END'],
      messages,
    });
  });

  it('thinking with a budget: max_tokens is the answer limit plus the budget; thinking read apart', async () => {
    servers.anthropic.script.push({ kind: 'answer', text: 'Shuweng', reasoning: 'Hmm.' });
    const response = await model().generate({
      messages,
      parameters: { temperature: 1, maxOutputTokens: 500, thinkingBudget: 2048 },
    });
    expect(lastBody('anthropic')).toEqual({
      model: 'claude-sonnet-4',
      max_tokens: 2548,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages,
    });
    expect([response.text, response.reasoning]).toEqual(['Shuweng', 'Hmm.']);
  });
});

// Bedrock Converse reference: inferenceConfig {maxTokens, temperature, topP, stopSequences};
// Claude's thinking in additionalModelRequestFields; reasoningContent blocks in the answer.
describe('Bedrock Converse', () => {
  const model = () =>
    new BedrockChatModel({
      modelId: 'anthropic.claude-sonnet-4',
      region: 'us-east-1',
      endpointURL: servers.bedrock.url,
    });

  it('topP and stopSequences in inferenceConfig', async () => {
    await model().generate({
      messages,
      parameters: { temperature: 0, maxOutputTokens: 50, topP: 0.9, stop: ['END'] },
    });
    expect(lastBody('bedrock').inferenceConfig).toEqual({
      maxTokens: 50,
      temperature: 0,
      topP: 0.9,
      stopSequences: ['END'],
    });
    expect(lastBody('bedrock').additionalModelRequestFields).toBeUndefined();
  });

  it('thinking: additionalModelRequestFields.thinking, no temperature; reasoningContent read apart', async () => {
    servers.bedrock.script.push({ kind: 'answer', text: 'Shuweng', reasoning: 'Hmm.' });
    const response = await model().generate({
      messages,
      parameters: { temperature: 1, maxOutputTokens: 500, thinkingBudget: 1024 },
    });
    expect(lastBody('bedrock').inferenceConfig).toEqual({ maxTokens: 1524 });
    expect(lastBody('bedrock').additionalModelRequestFields).toEqual({
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
    expect([response.text, response.reasoning]).toEqual(['Shuweng', 'Hmm.']);
  });
});

// Gemini reference: generationConfig {topP, seed, stopSequences, frequencyPenalty, presencePenalty,
// thinkingConfig: {thinkingBudget}}; thought parts and usageMetadata.thoughtsTokenCount.
describe('Gemini', () => {
  it('every setting in generationConfig; thoughts and their tokens apart', async () => {
    servers.gemini.script.push({
      kind: 'answer',
      text: 'Shuweng',
      reasoning: 'Thinking it over.',
      reasoningTokens: 30,
    });
    const model = new GeminiChatModel({
      modelId: 'gemini-2.5-flash',
      apiKey: 'g',
      baseURL: servers.gemini.url,
    });
    const response = await model.generate({ messages, parameters: { ...sampling, thinkingBudget: 256 } });
    expect(lastBody('gemini').generationConfig).toEqual({
      temperature: 0.2,
      maxOutputTokens: 306,
      topP: 0.9,
      seed: 7,
      stopSequences: ['<|eot_id|>', '\nQuestion:'],
      frequencyPenalty: 0.5,
      presencePenalty: -0.25,
      thinkingConfig: { thinkingBudget: 256 },
    });
    expect(response.text).toBe('Shuweng');
    expect(response.reasoning).toBe('Thinking it over.');
    expect(response.usage).toEqual({ inputTokens: 1, outputTokens: 32, reasoningTokens: 30 });
  });
});

// Ollama /api/chat reference: options {top_p, seed, stop, frequency_penalty, presence_penalty};
// a thinking model's thoughts in message.thinking.
describe('Ollama', () => {
  it('every setting in options, extraBody merged (keep_alive); thinking read apart', async () => {
    servers.ollama.script.push({ kind: 'answer', text: 'Shuweng', reasoning: 'Hmm.' });
    const model = new OllamaChatModel({
      baseURL: servers.ollama.url,
      modelId: 'llama3.1:8b',
      contextWindow: 8192,
    });
    const response = await model.generate({
      messages,
      parameters: { ...sampling, extraBody: { keep_alive: '5m' } },
    });
    expect(lastBody('ollama')).toEqual({
      model: 'llama3.1:8b',
      messages,
      stream: false,
      options: {
        temperature: 0.2,
        num_predict: 50,
        num_ctx: 8192,
        top_p: 0.9,
        seed: 7,
        stop: ['<|eot_id|>', '\nQuestion:'],
        frequency_penalty: 0.5,
        presence_penalty: -0.25,
      },
      keep_alive: '5m',
    });
    expect([response.text, response.reasoning]).toEqual(['Shuweng', 'Hmm.']);
  });
});

describe('what a reasoning or thinking model changes beyond the body', () => {
  it('Azure probes a reasoning deployment with the fields it takes (max_completion_tokens, no temperature)', async () => {
    const model = new AzureOpenAIChatModel({
      resourceURL: servers['azure-openai'].url,
      deployment: 'gpt-5-prod',
      modelId: 'gpt-5',
      apiKey: 'azure-x',
      reasoningModel: true,
    });
    await model.probe();
    expect(lastBody('azure-openai')).toEqual({
      messages: [{ role: 'user', content: 'ping' }],
      max_completion_tokens: 16,
      stream: false,
    });
  });

  it('Anthropic with thinking takes no prefilled answer (the API refuses one)', () => {
    const options = { baseURL: servers.anthropic.url, modelId: 'claude-sonnet-4', apiKey: 'k' };
    expect(new AnthropicChatModel(options).capabilities.prefill).toBe('trimmed');
    expect(new AnthropicChatModel({ ...options, thinking: true }).capabilities.prefill).toBe('none');
  });
});
