import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../../../test/support/llm-test-server.js';
import { verifySigV4 } from '../../../test/support/sigv4.js';
import type { ChatRequest } from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { BedrockChatModel } from './bedrock-chat-model.js';
import { claudeInvokeBody, isClaudeOnBedrock } from './bedrock-claude-body.js';

let server: LlmTestServer;
const saved = { ...process.env };
beforeAll(async () => {
  server = await startLlmTestServer({
    provider: 'bedrock',
    fallback: () => ({ kind: 'answer', text: 'Shuweng' }),
  });
  // The SDK's own credential chain reads these, as it would on a user's machine.
  process.env.AWS_ACCESS_KEY_ID = 'AKIDMEDBENCHTEST';
  process.env.AWS_SECRET_ACCESS_KEY = 'bedrock-secret-key-for-tests';
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
});
afterAll(async () => {
  process.env = saved;
  await server.close();
});

const model = (modelId = 'anthropic.claude-3-haiku-20240307-v1:0') =>
  new BedrockChatModel({ modelId, region: 'eu-central-1', endpointURL: server.url });

// Bedrock Runtime API reference, Converse: POST /model/{modelId}/converse with
// {messages: [{role, content: [{text}]}], system: [{text}], inferenceConfig: {maxTokens, temperature}},
// signed with SigV4 for service "bedrock"; answer {output: {message: {content: [{text}]}}, stopReason, usage}.
describe('Amazon Bedrock on the wire', () => {
  it('sends a Converse request signed with SigV4 for the region, and reads text and usage', async () => {
    const response = await model().generate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Who?' },
      ],
      parameters: { temperature: 0, maxOutputTokens: 500 },
    });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse');
    expect(request.body).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Who?' }] }],
      system: [{ text: 'Be brief.' }],
      inferenceConfig: { temperature: 0, maxTokens: 500 },
    });
    const signed = verifySigV4(request, 'bedrock-secret-key-for-tests');
    expect(signed.accessKeyId).toBe('AKIDMEDBENCHTEST');
    expect(signed.scope).toMatch(/^\d{8}\/eu-central-1\/bedrock\/aws4_request$/);
    // "Be brief.\nWho?" is 14 characters, "Shuweng" 7: the server counts a token per 4.
    expect(response).toEqual({
      text: 'Shuweng',
      usage: { inputTokens: 4, outputTokens: 2 },
      finishReason: 'end_turn',
    });
    expect(() => verifySigV4(request, 'another-secret')).toThrow(/signature mismatch/);
  });

  it("sends the endpoint's headers and query parameters on every request, signed with the rest", async () => {
    const gateway = new BedrockChatModel({
      modelId: 'anthropic.claude-3-haiku-20240307-v1:0',
      region: 'eu-central-1',
      endpointURL: server.url,
      headers: { 'x-institution': 'uk-essen' },
      query: { tenant: 'radiology' },
    });
    await gateway.countTokens([{ role: 'user', content: 'x' }]);
    await gateway.generate({
      messages: [{ role: 'user', content: 'x' }],
      parameters: { temperature: 0, maxOutputTokens: 8 },
    });
    for (const request of [server.counts.at(-1)!, server.requests.at(-1)!]) {
      expect(request.path).toMatch(
        /^\/model\/anthropic\.claude-3-haiku-20240307-v1%3A0\/(count-tokens|converse)\?tenant=radiology$/,
      );
      expect(request.headers['x-institution']).toBe('uk-essen');
      expect(verifySigV4(request, 'bedrock-secret-key-for-tests').accessKeyId).toBe('AKIDMEDBENCHTEST');
    }
    // Query and fixed headers may route to another server: part of the identity; a secret header is not.
    expect(gateway.endpoint).toMatch(new RegExp(`^${server.url}\\?tenant=radiology#headers=[0-9a-f]{12}$`));
    const withSecret = new BedrockChatModel({
      modelId: 'm',
      region: 'eu-central-1',
      endpointURL: server.url,
      headers: { 'x-institution': 'uk-essen' },
      secretHeaders: { 'x-gateway-secret': 'gw-1' },
      query: { tenant: 'radiology' },
    });
    expect(withSecret.endpoint).toBe(gateway.endpoint);
  });
  it('the SDK retries nothing itself: one request per attempt, the runner counts them', async () => {
    const before = server.requests.length;
    server.script.push({ kind: 'status', status: 503 });
    const error = await model()
      .generate({
        messages: [{ role: 'user', content: 'x' }],
        parameters: { temperature: 0, maxOutputTokens: 8 },
      })
      .catch((caught: unknown) => caught);
    expect((error as MedbenchError).retryable).toBe(true);
    expect(server.requests.length - before).toBe(1);
  });

  it('an unknown model is a 404 whose hint names the model id and the region', async () => {
    server.script.push({
      kind: 'status',
      status: 404,
      body: '{"message": "Could not resolve the foundation model from the provided model identifier."}',
    });
    const error = await model('anthropic.claude-typo')
      .generate({
        messages: [{ role: 'user', content: 'x' }],
        parameters: { temperature: 0, maxOutputTokens: 8 },
      })
      .catch((caught: unknown) => caught);
    expect(MedbenchError.is(error)).toBe(true);
    expect((error as MedbenchError).retryable).toBe(false);
    expect((error as MedbenchError).hint).toMatch(/"anthropic\.claude-typo".*region eu-central-1/);
  });

  it('no region is a clear error before anything is sent', async () => {
    delete process.env.AWS_REGION;
    delete process.env.AWS_DEFAULT_REGION;
    const before = server.requests.length;
    const error = await new BedrockChatModel({ modelId: 'm', endpointURL: server.url })
      .generate({
        messages: [{ role: 'user', content: 'x' }],
        parameters: { temperature: 0, maxOutputTokens: 8 },
      })
      .catch((caught: unknown) => caught);
    expect([(error as MedbenchError).code, (error as MedbenchError).hint]).toEqual([
      'CONFIG_INVALID',
      expect.stringContaining('AWS_REGION'),
    ]);
    expect(server.requests.length).toBe(before);
  });
});

const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const haystack = 'A long shared document. '.repeat(20);
const request: ChatRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'system', content: 'Answer in English.' },
    { role: 'user', content: `${haystack}Who?` },
    { role: 'assistant', content: 'Nobody.' },
    { role: 'user', content: 'Who, then?' },
  ],
  parameters: { temperature: 0, maxOutputTokens: 500, topP: 0.9, stop: ['END'] },
  promptCache: { breakpoints: [{ message: 2, offset: haystack.length }], key: 'k1' },
};

/** A Converse content list's texts, joined, and where its cache checkpoints fall (after which text). */
function converseTexts(blocks: Array<{ text?: string; cachePoint?: unknown }>) {
  return blocks.map((block) => (block.cachePoint ? '|cache|' : block.text)).join('');
}
function claudeTexts(blocks: Array<{ text: string; cache_control?: unknown }>) {
  return blocks.map((block) => block.text + (block.cache_control ? '|cache|' : '')).join('');
}

// Bedrock's Claude parameters page (Messages API on InvokeModel): anthropic_version
// "bedrock-2023-05-31", max_tokens, system, messages, temperature, top_p, stop_sequences; Converse's
// inferenceConfig and system/content blocks are what Bedrock maps onto those fields.
describe("a Claude model's InvokeModel body for batch inference", () => {
  it('carries the text, turns, cache checkpoints and settings the synchronous Converse request sends', async () => {
    await new BedrockChatModel({ modelId: MODEL, region: 'us-east-1', endpointURL: server.url }).generate(
      request,
    );
    const converse = server.requests.at(-1)!.body as {
      system: Array<{ text?: string; cachePoint?: unknown }>;
      messages: Array<{ role: string; content: Array<{ text?: string; cachePoint?: unknown }> }>;
      inferenceConfig: Record<string, unknown>;
    };
    const body = claudeInvokeBody(request, request.promptCache) as {
      system: Array<{ text: string; cache_control?: unknown }>;
      messages: Array<{ role: string; content: Array<{ text: string; cache_control?: unknown }> }>;
    };
    expect(converseTexts(converse.system)).toBe(claudeTexts(body.system));
    expect(body.messages.map((message) => [message.role, claudeTexts(message.content)])).toEqual(
      converse.messages.map((message) => [message.role, converseTexts(message.content)]),
    );
    expect(converse.inferenceConfig).toEqual({
      maxTokens: 500,
      temperature: 0,
      topP: 0.9,
      stopSequences: ['END'],
    });
    expect(body).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 500,
      temperature: 0,
      top_p: 0.9,
      stop_sequences: ['END'],
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Answer in English.' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: haystack, cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'Who?' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Nobody.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Who, then?' }] },
      ],
    });
  });

  it('thinking: its budget on top of max_tokens, no temperature, as Converse sends it', () => {
    const thinking = {
      ...request,
      parameters: { temperature: 1, maxOutputTokens: 500, thinkingBudget: 2048 },
    };
    const body = claudeInvokeBody(thinking);
    expect(body).toMatchObject({ max_tokens: 2548, thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(body).not.toHaveProperty('temperature');
    // Without a hint, no cache_control anywhere.
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });

  it('knows Claude by its foundation model: an id, an inference profile or an ARN', () => {
    expect(isClaudeOnBedrock('anthropic.claude-3-haiku-20240307-v1:0')).toBe(true);
    expect(isClaudeOnBedrock('eu.anthropic.claude-3-7-sonnet-20250219-v1:0')).toBe(true);
    expect(
      isClaudeOnBedrock(
        'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-v1:0',
      ),
    ).toBe(true);
    expect(isClaudeOnBedrock('amazon.nova-pro-v1:0')).toBe(false);
    expect(isClaudeOnBedrock('meta.llama3-70b-instruct-v1:0')).toBe(false);
  });
});
