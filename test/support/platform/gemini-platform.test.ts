import { afterEach, describe, expect, it } from 'vitest';
import { type GeminiPlatform, startGeminiPlatform } from './gemini-platform.js';
import { ManualClock } from './platform-basics.js';
import { at, fetchJson, postJson, text } from './platform-fetch.js';

let platform: GeminiPlatform;
afterEach(() => platform.close());

const KEY = { 'x-goog-api-key': 'test-key' };
/** "user: " + 11,993 characters + "\n" = 12,000 characters = 3000 tokens. */
const SHARED = 'h'.repeat(12_000 - 'user: \n'.length);
const contents = (question: string, shared = SHARED) => [
  { role: 'user', parts: [{ text: shared }] },
  { role: 'user', parts: [{ text: question }] },
];
const generate = (body: unknown, model = 'gemini-2.5-flash') =>
  postJson(`${platform.url}/v1beta/models/${model}:generateContent`, body, KEY);
const usage = async (body: unknown, model?: string) =>
  at((await generate(body, model)).body, 'usageMetadata');
const micro = () => platform.ledger.entries.map((entry) => Math.round(entry.cost * 1e6));

describe('Gemini platform: generateContent and caching', () => {
  it('serves a shared prefix from the implicit cache above the model minimum', async () => {
    platform = await startGeminiPlatform({ clock: new ManualClock(), answer: () => 'ok' });
    expect(await usage({ contents: contents('A question') })).toEqual({
      promptTokenCount: 3005,
      candidatesTokenCount: 1,
      totalTokenCount: 3006,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 3005 }],
    });
    expect(await usage({ contents: contents('B question') })).toMatchObject({
      cachedContentTokenCount: 3000,
    });
    const short = contents('A', 'h'.repeat(7000));
    await usage({ contents: short });
    expect(await usage({ contents: short })).not.toHaveProperty('cachedContentTokenCount');
    // $0.30/M input, $0.03/M cached, $2.50/M output: 5·0.30 + 3000·0.03 + 2.5 = 94 micro-dollars.
    expect(micro()[1]).toBe(94);
  });

  it('caches implicitly for Gemini 2.5 and newer only, as the caching guide says', async () => {
    platform = await startGeminiPlatform({ clock: new ManualClock(), answer: () => 'ok' });
    await usage({ contents: contents('A question') }, 'gemini-2.0-flash');
    expect(await usage({ contents: contents('B question') }, 'gemini-2.0-flash')).not.toHaveProperty(
      'cachedContentTokenCount',
    );
    await usage({ contents: contents('A question') }, 'gemini-2.5-pro');
    expect(await usage({ contents: contents('B question') }, 'gemini-2.5-pro')).toMatchObject({
      cachedContentTokenCount: 3000,
    });
  });

  it('creates an explicit cache, prepends it, bills its write, its reads and its storage by the hour', async () => {
    const clock = new ManualClock();
    platform = await startGeminiPlatform({ clock, answer: () => 'ok' });
    const created = await postJson(
      `${platform.url}/v1beta/cachedContents`,
      {
        model: 'models/gemini-2.5-flash',
        contents: [{ role: 'user', parts: [{ text: SHARED }] }],
        ttl: '600s',
      },
      KEY,
    );
    expect(created.body).toMatchObject({ usageMetadata: { totalTokenCount: 3000 } });
    const name = text(created.body, 'name');
    const answered = await usage({
      contents: [{ role: 'user', parts: [{ text: 'A question' }] }],
      cachedContent: name,
    });
    expect(answered).toMatchObject({ promptTokenCount: 3005, cachedContentTokenCount: 3000 });
    const withSystem = await generate({
      contents: [{ role: 'user', parts: [{ text: 'x' }] }],
      cachedContent: name,
      systemInstruction: { parts: [{ text: 'y' }] },
    });
    expect(withSystem.status).toBe(400);
    clock.advance(11 * 60_000);
    expect((await fetchJson(`${platform.url}/v1beta/${name}`, { headers: KEY })).status).toBe(403);
    platform.settleStorage();
    // Write 3000·0.30 = 900; request 94; storage 3000 tokens × 1/6 hour × $1/M/hour = 500.
    expect(micro()).toEqual([900, 94, 500]);
  });

  it('refuses a cache under the minimum and stops billing storage at delete', async () => {
    const clock = new ManualClock();
    platform = await startGeminiPlatform({ clock });
    const small = await postJson(
      `${platform.url}/v1beta/cachedContents`,
      { model: 'models/gemini-2.5-flash', contents: [{ role: 'user', parts: [{ text: 'tiny' }] }] },
      KEY,
    );
    expect(small).toMatchObject({ status: 400, body: { error: { status: 'INVALID_ARGUMENT' } } });
    const created = await postJson(
      `${platform.url}/v1beta/cachedContents`,
      { model: 'models/gemini-2.5-flash', contents: [{ role: 'user', parts: [{ text: SHARED }] }] },
      KEY,
    );
    const name = text(created.body, 'name');
    clock.advance(2 * 60_000);
    expect(
      (await fetchJson(`${platform.url}/v1beta/${name}`, { method: 'DELETE', headers: KEY })).body,
    ).toEqual({});
    clock.advance(60 * 60_000);
    platform.settleStorage();
    expect(micro()).toEqual([900, 100]);
  });
});

const batchRequest = (key: string, question: string) => ({
  request: { contents: contents(question) },
  metadata: { key },
});
const createBatch = (requests: unknown[], displayName: string | null = 'run') =>
  postJson(
    `${platform.url}/v1beta/models/gemini-2.5-flash:batchGenerateContent`,
    {
      batch: {
        ...(displayName ? { display_name: displayName } : {}),
        input_config: { requests: { requests } },
      },
    },
    KEY,
  );
const get = (name: string) => fetchJson(`${platform.url}/v1beta/${name}`, { headers: KEY });

describe('Gemini platform: Batch Mode', () => {
  it('runs PENDING → RUNNING → SUCCEEDED as an operation, responses inline in request order', async () => {
    platform = await startGeminiPlatform({ clock: new ManualClock(), answer: () => 'ok' });
    const created = await createBatch([
      batchRequest('a', 'A question'),
      batchRequest('b', 'B question'),
      { request: { contents: [] } },
    ]);
    expect(created.body).toMatchObject({
      done: false,
      metadata: { state: 'BATCH_STATE_PENDING', displayName: 'run' },
    });
    const name = text(created.body, 'name');
    platform.batches.holdAt = 'in_progress';
    expect(at((await get(name)).body, 'metadata', 'state')).toBe('BATCH_STATE_RUNNING');
    platform.batches.process(name, 1);
    expect(at((await get(name)).body, 'metadata', 'batchStats')).toEqual({
      requestCount: '3',
      successfulRequestCount: '1',
      failedRequestCount: '0',
      pendingRequestCount: '2',
    });
    platform.batches.holdAt = undefined;
    await get(name);
    const done = await get(name);
    expect(done.body).toMatchObject({ done: true, metadata: { state: 'BATCH_STATE_SUCCEEDED' } });
    const responses = at(done.body, 'response', 'inlinedResponses', 'inlinedResponses') as unknown[];
    expect(responses.map((entry) => at(entry, 'metadata', 'key'))).toEqual(['a', 'b', undefined]);
    expect(at(responses[1], 'response', 'usageMetadata', 'cachedContentTokenCount')).toBe(3000);
    expect(at(responses[2], 'error', 'status')).toBe('INVALID_ARGUMENT');
    // Half price: the first 3005·0.30 + 2.5 = 904 → 452; the second 94 → 47.
    expect(micro()).toEqual([452, 47]);
  });

  it('cancels into CANCELLED with the error code 1, and expires on demand', async () => {
    platform = await startGeminiPlatform({ clock: new ManualClock() });
    const name = text((await createBatch([batchRequest('a', 'x'), batchRequest('b', 'y')])).body, 'name');
    platform.batches.holdAt = 'in_progress';
    await get(name);
    platform.batches.process(name, 1);
    const cancel = await postJson(`${platform.url}/v1beta/${name}:cancel`, {}, KEY);
    expect(cancel).toEqual({ status: 200, body: {} });
    const cancelled = await get(name);
    expect(cancelled.body).toMatchObject({
      done: true,
      error: { code: 1 },
      metadata: { state: 'BATCH_STATE_CANCELLED' },
    });
    const other = text((await createBatch([batchRequest('c', 'z')])).body, 'name');
    platform.batches.expire(other);
    expect(at((await get(other)).body, 'metadata', 'state')).toBe('BATCH_STATE_EXPIRED');
  });

  it('refuses a batch without a display name or a key, lists with pageSize, counts submitted keys', async () => {
    platform = await startGeminiPlatform({ clock: new ManualClock() });
    expect((await createBatch([batchRequest('a', 'x')], null)).status).toBe(400);
    const anonymous = await postJson(`${platform.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
      contents: contents('x'),
    });
    expect(anonymous.status).toBe(403);
    const first = text((await createBatch([batchRequest('a', 'x')])).body, 'name');
    const second = text((await createBatch([batchRequest('a', 'x'), batchRequest('b', 'y')])).body, 'name');
    const page = await fetchJson(`${platform.url}/v1beta/batches?pageSize=1`, { headers: KEY });
    expect(page.body).toMatchObject({ operations: [{ name: second }], nextPageToken: '1' });
    const next = await fetchJson(`${platform.url}/v1beta/batches?pageSize=1&pageToken=1`, { headers: KEY });
    platform.batches.advanceOnPoll = false;
    platform.batches.advance(first);
    platform.batches.advance(first);
    platform.batches.advance(first);
    platform.cutNextDownload = true;
    await expect(get(first)).rejects.toThrow();
    expect(at((await get(first)).body, 'done')).toBe(true);
    expect(next.body).toEqual({ operations: [expect.objectContaining({ name: first })] });
    expect(Object.fromEntries(platform.received.batchLines)).toEqual({ a: 2, b: 1 });
  });
});
