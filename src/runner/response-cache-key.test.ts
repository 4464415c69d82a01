import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { messagesDigest, responseCacheKey } from './response-cache-key.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('responseCacheKey', () => {
  it('hashes canonicalJson of the request, as every stored key was made', () => {
    const cases = [
      { temperature: 0, maxOutputTokens: 16 },
      { maxOutputTokens: 16, temperature: 0, stop: ['\n', 'é'], extra: { b: 1, a: [2, { d: 3, c: null }] } },
      { temperature: 0, seed: undefined, truncatePromptTokens: 4000 },
      undefined,
    ];
    for (const parameters of cases) {
      for (let repeat = 0; repeat < 2; repeat++) {
        const options = {
          provider: 'openai-compatible',
          endpoint: 'http://127.0.0.1:8000/v1 "quoted"',
          modelId: 'Qwen/Qwen2.5-7B-Instruct',
          parameters,
          messagesDigest: 'ab'.repeat(32),
        };
        const expected = sha(
          canonicalJson({
            version: 3,
            provider: options.provider,
            endpoint: options.endpoint,
            modelId: options.modelId,
            parameters: options.parameters,
            messages: options.messagesDigest,
          }),
        );
        expect(responseCacheKey(options)).toBe(expected);
      }
    }
    // A stored key, computed before this file changed: it must never move.
    expect(
      responseCacheKey({
        provider: 'openai-compatible',
        endpoint: 'http://127.0.0.1:8000/v1',
        modelId: 'm',
        parameters: { temperature: 0, maxOutputTokens: 16 },
        messagesDigest: 'd',
      }),
    ).toBe(KNOWN_KEY);
  });
});

describe('messagesDigest', () => {
  it('is the digest of the pieces hashed one by one, short or long, lone surrogates included', () => {
    const pieces = (messages: Array<{ role: 'system' | 'user'; content: string }>) => {
      const hash = createHash('sha256');
      for (const message of messages) {
        hash.update(`\u0000${message.role}\u0000${message.content.length}\u0000`);
        hash.update(message.content);
      }
      return hash.digest('hex');
    };
    const conversations = [
      [{ role: 'user' as const, content: 'Which letter?' }],
      [
        { role: 'system' as const, content: '你是医生。\ud800' },
        { role: 'user' as const, content: '\udc00 fever 38.5 °C' },
      ],
      [{ role: 'user' as const, content: 'x'.repeat(70_000) }],
      [],
    ];
    for (const messages of conversations) expect(messagesDigest(messages)).toBe(pieces(messages));
  });
});

/** responseCacheKey of the request above, printed by the code of commit 02a0467. */
const KNOWN_KEY = '147a2485c6ce17b78871678658e6bf03e84f4bf204261c331ae22e0ebede94e9';
