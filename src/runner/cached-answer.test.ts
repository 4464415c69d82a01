import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatModel } from '../core/chat-model.js';
import { RequestClaims } from '../store/request-claims.js';
import { Store } from '../store/store.js';
import { AnswerCache } from './cached-answer.js';
import type { ModelBinding } from './model-binding.js';
import type { SampleRequest } from './sample-request.js';

const endpoint = {
  provider: 'openai-compatible',
  endpoint: 'http://127.0.0.1:9/v1',
  modelId: 'm',
} as ChatModel;
const binding = {
  label: 'm',
  provider: 'openai-compatible',
  modelId: 'm',
  endpoints: [{ model: endpoint, concurrency: 1 }],
} as unknown as ModelBinding;
const request = (digest: string) =>
  ({ keyParameters: { temperature: 0 }, digest }) as unknown as SampleRequest;
const answer = { text: 'stored by the other process', inputTokens: 1, outputTokens: 1, finishReason: 'stop' };
const options = { deadline: undefined, signal: new AbortController().signal };

/**
 * Two "processes" on one home: this run (a store connection, its claims) and another (its own
 * store connection and claims). An answer the other commits after this run read its keys is
 * found after this run takes the claim, because the other let go of its claim after committing.
 */
describe('AnswerCache with claims', () => {
  it('reads the store after a claim when another process let go of one since the run began', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'answer-cache-')), 'medbench.sqlite');
    const store = new Store(file);
    const claims = RequestClaims.beside(file);
    const cache = new AnswerCache(store, binding, claims);
    const other = new Store(file);
    const otherClaims = RequestClaims.beside(file);
    const key = cache.keyFor(endpoint, request('d1'));
    // The other process claims, stores its answer, lets go (in that order, as runners do).
    const claimKeyHeld = otherClaims.claim('unrelated');
    expect(claimKeyHeld.taken).toBe(true);
    other.putCachedResponse({ cacheKey: key, provider: 'openai-compatible', modelId: 'm', response: answer });
    otherClaims.release('unrelated');
    const found = await cache.findOrClaim(endpoint, request('d1'), options);
    expect(found?.cached?.text).toBe(answer.text);
    cache.close();
    for (const closing of [claims, otherClaims]) closing.close();
    for (const closing of [store, other]) closing.close();
  });

  it('skips that read while no other connection has written a claim (only this run answered since)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'answer-cache-')), 'medbench.sqlite');
    const store = new Store(file);
    const claims = RequestClaims.beside(file);
    const cache = new AnswerCache(store, binding, claims);
    // Written behind the claims' back (no runner does this): unseen, proving the store is not read.
    const other = new Store(file);
    const key = cache.keyFor(endpoint, request('d2'));
    other.putCachedResponse({ cacheKey: key, provider: 'openai-compatible', modelId: 'm', response: answer });
    const quiet = await cache.findOrClaim(endpoint, request('d2'), options);
    expect(quiet?.cached).toBeUndefined();
    quiet?.release();
    // A second answer cache on the same claims connection: the claims cannot speak for it, so read.
    const twin = new AnswerCache(store, binding, claims);
    await new Promise((resolve) => setImmediate(resolve));
    const shared = await cache.findOrClaim(endpoint, request('d2'), options);
    expect(shared?.cached?.text).toBe(answer.text);
    twin.close();
    cache.close();
    claims.close();
    for (const closing of [store, other]) closing.close();
  });
});
