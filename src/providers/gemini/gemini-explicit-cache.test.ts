import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InterceptingProxy, startInterceptingProxy } from '../../../test/support/intercepting-proxy.js';
import { type GeminiPlatform, startGeminiPlatform } from '../../../test/support/platform/gemini-platform.js';
import type { ChatMessage } from '../../core/chat-model.js';
import { GeminiChatModel } from './gemini-chat-model.js';
import { geminiCacheMinimum } from './gemini-explicit-cache.js';

let platform: GeminiPlatform;
let proxy: InterceptingProxy;
let model: GeminiChatModel;

/** A system prompt and a shot (whole messages a cache holds), then the item's own turn. */
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You label sentence pairs.' },
  { role: 'user', content: `A long shot: ${'stable, afebrile. '.repeat(60)}` },
  { role: 'assistant', content: 'ENTAILMENT' },
  { role: 'user', content: 'Premise 7. Hypothesis 7.' },
];
const PARAMETERS = { temperature: 0, maxOutputTokens: 20 };

beforeAll(async () => {
  // A minimum of 100 tokens (the test's own), so that a shot of a thousand characters is cacheable.
  platform = await startGeminiPlatform({ minimumCachingTokens: () => 100 });
  // The SDK sends a plain generateContent to /v1 (its default), which the platform serves as /v1beta.
  proxy = await startInterceptingProxy(
    () => platform.url,
    () => 'forward',
    () => {},
    (path) => path.replace(/^\/v1\/(models\/)/, '/v1beta/$1'),
  );
  model = new GeminiChatModel({ modelId: 'gemini-2.0-flash', apiKey: 'test-key', baseURL: proxy.url });
});
afterAll(async () => {
  await proxy.close();
  await platform.close();
});

describe('Gemini explicit cache (cachedContents)', () => {
  it('the documented minimum: 2,048 tokens for Gemini 2.x, 4,096 for Gemini 3 and later', () => {
    expect(geminiCacheMinimum('gemini-2.5-flash')).toBe(2048);
    expect(geminiCacheMinimum('gemini-3-pro-preview')).toBe(4096);
  });

  it('a request naming a cache sends the rest; the model reads the same text as without it', async () => {
    const plain = await model.generate({ messages: MESSAGES, parameters: PARAMETERS });
    const entry = await model.explicitCache!.create(MESSAGES.slice(0, 3), { ttlSeconds: 300 });
    expect(entry).toBeDefined();
    const held = [...platform.explicitCaches.values()].at(-1)!;
    expect(held.name).toBe(entry!.name);
    expect(held.expiresAt - held.createdAt).toBe(300_000);
    expect(held.text).toContain('system: You label sentence pairs.');
    const cached = await model.generate({
      messages: MESSAGES,
      parameters: PARAMETERS,
      explicitCache: { name: entry!.name, messages: 3 },
    });
    // The platform answers with a hash of the text read: the same answer, that text served from the cache.
    expect(cached.text).toBe(plain.text);
    expect(cached.usage).toMatchObject({
      inputTokens: plain.usage!.inputTokens,
      cachedInputTokens: entry!.tokens,
    });
    expect(plain.usage).not.toHaveProperty('cachedInputTokens');

    const extended = await model.explicitCache!.extend(entry!.name, 600);
    expect(extended).toBe(held.expiresAt);
    await model.explicitCache!.remove(entry!.name);
    expect(held.deleted).toBe(true);
    // Gone: the request goes whole (same answer, nothing cached); extend and remove find nothing.
    const whole = await model.generate({
      messages: MESSAGES,
      parameters: PARAMETERS,
      explicitCache: { name: entry!.name, messages: 3 },
    });
    expect(whole.text).toBe(plain.text);
    expect(whole.usage).not.toHaveProperty('cachedInputTokens');
    expect(await model.explicitCache!.extend(entry!.name, 600)).toBeUndefined();
    await expect(model.explicitCache!.remove(entry!.name)).resolves.toBeUndefined();
  });

  it('a cache below the minimum is refused: no cache, no error', async () => {
    expect(await model.explicitCache!.create(MESSAGES.slice(0, 1), { ttlSeconds: 300 })).toBeUndefined();
  });

  it('none on Vertex AI', () => {
    const vertex = new GeminiChatModel({
      modelId: 'gemini-2.5-flash',
      vertex: { project: 'clinical-eval', location: 'europe-west4' },
    });
    expect(vertex.explicitCache).toBeUndefined();
  });
});
