import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/providers/anthropic/anthropic-chat-model.js';
import { OpenAICompatibleChatModel } from '../../src/providers/openai-compatible/openai-compatible-chat-model.js';
import { OpenAICompatibleCompletionModel } from '../../src/providers/openai-compatible/openai-compatible-completion-model.js';
import { OpenAICompatibleEmbeddingModel } from '../../src/providers/openai-compatible/openai-compatible-embedding-model.js';
import { fuzzParameters, onlyMedbenchErrors } from '../support/fuzz.js';

/**
 * Every provider parses what a server sends back, and a server may send anything: for any status,
 * content type and body, a call returns or fails with a MedbenchError, and a key never appears in
 * the error.
 */

interface Reply {
  status: number;
  contentType: string;
  body: string;
}
let reply: Reply = { status: 200, contentType: 'application/json', body: '{}' };
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(reply.status, { 'content-type': reply.contentType });
      response.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const KEY = 'sk-property-test-key-0123456789';

/** Bodies: anything, JSON of any shape, and the protocols' own shapes with odd values inside. */
const body = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc
    .record({
      choices: fc.array(
        fc.record({
          message: fc.oneof(
            fc.record({ content: fc.jsonValue({ maxDepth: 1 }) }),
            fc.jsonValue({ maxDepth: 1 }),
          ),
          text: fc.jsonValue({ maxDepth: 1 }),
          finish_reason: fc.jsonValue({ maxDepth: 0 }),
        }),
        { maxLength: 2 },
      ),
      usage: fc.jsonValue({ maxDepth: 2 }),
    })
    .map((value) => JSON.stringify(value)),
  fc
    .record({
      content: fc.array(
        fc.record({ type: fc.constantFrom('text', 'tool_use', 'x'), text: fc.jsonValue({ maxDepth: 1 }) }),
        {
          maxLength: 2,
        },
      ),
      usage: fc.jsonValue({ maxDepth: 2 }),
      stop_reason: fc.jsonValue({ maxDepth: 0 }),
    })
    .map((value) => JSON.stringify(value)),
  fc
    .record({
      data: fc.array(
        fc.record({
          index: fc.oneof(fc.nat(3), fc.jsonValue({ maxDepth: 0 })),
          embedding: fc.oneof(
            fc.array(fc.oneof(fc.double(), fc.jsonValue({ maxDepth: 0 })), { maxLength: 4 }),
            fc.string(),
          ),
        }),
        { maxLength: 3 },
      ),
      usage: fc.jsonValue({ maxDepth: 1 }),
    })
    .map((value) => JSON.stringify(value)),
  fc.constant(`{"error": {"message": "bad key ${KEY}"}}`),
);
const replies: fc.Arbitrary<Reply> = fc.record({
  status: fc.oneof(
    { weight: 4, arbitrary: fc.constant(200) },
    fc.constantFrom(201, 204, 301, 400, 401, 404, 413, 429, 500, 503),
  ),
  contentType: fc.constantFrom(
    'application/json',
    'text/plain',
    'text/html',
    'application/json; charset=utf-8',
  ),
  body,
});

describe('provider response parsing never throws anything but a MedbenchError', () => {
  const parameters = { temperature: 0, maxOutputTokens: 16 };
  const options = () => ({ modelId: 'm', apiKey: KEY, apiKeyEnv: 'TEST_KEY', maxRetries: 0 });
  const cases: Array<[string, () => Promise<unknown>]> = [
    [
      'OpenAI-compatible chat',
      () =>
        new OpenAICompatibleChatModel({ ...options(), baseURL: `${url}/v1` }).generate({
          messages: [{ role: 'user', content: 'x' }],
          parameters,
        }),
    ],
    [
      'OpenAI-compatible completions',
      () =>
        new OpenAICompatibleCompletionModel({ ...options(), baseURL: `${url}/v1` }).generate({
          messages: [{ role: 'user', content: 'x' }],
          parameters,
        }),
    ],
    [
      'Anthropic',
      () =>
        new AnthropicChatModel({ ...options(), baseURL: url }).generate({
          messages: [{ role: 'user', content: 'x' }],
          parameters,
        }),
    ],
    [
      'OpenAI-compatible embeddings',
      () =>
        new OpenAICompatibleEmbeddingModel({ ...options(), baseURL: `${url}/v1` }).embed({
          values: ['a', 'b'],
        }),
    ],
  ];
  it.each(cases)('%s', async (_name, call) => {
    await fc.assert(
      fc.asyncProperty(replies, async (next) => {
        reply = next;
        const error = await onlyMedbenchErrors(call);
        if (error) expect(`${error.message} ${error.hint ?? ''}`).not.toContain(KEY);
      }),
      fuzzParameters(150),
    );
  });
});
