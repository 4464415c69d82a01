import { afterEach, describe, expect, it } from 'vitest';
import { type AnthropicPlatform, startAnthropicPlatform } from './anthropic-platform.js';
import { ManualClock } from './platform-basics.js';
import { at, fetchJson, jsonLines, postJson, text } from './platform-fetch.js';

let platform: AnthropicPlatform;
afterEach(() => platform.close());

const HEADERS = { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' };
const EPHEMERAL = { type: 'ephemeral' };
/** "system: " + 7992 characters = 8000 characters = 2000 tokens. */
const SYSTEM = 's'.repeat(8000 - 'system: '.length);

const message = (body: Record<string, unknown>) => postJson(`${platform.url}/v1/messages`, body, HEADERS);
const usage = async (body: Record<string, unknown>) => at((await message(body)).body, 'usage');
const cachedSystem = (question: string, model = 'claude-sonnet-4-5', system = SYSTEM) => ({
  model,
  max_tokens: 16,
  system: [{ type: 'text', text: system, cache_control: EPHEMERAL }],
  // "\nuser: question 1" = 17 characters; with the system, 8017 characters = 2005 tokens.
  messages: [{ role: 'user', content: question }],
});

describe('Anthropic platform: prompt caching at cache_control breakpoints', () => {
  it('writes the prefix at a breakpoint, reads it next time, and bills both as documented', async () => {
    platform = await startAnthropicPlatform({ clock: new ManualClock(), answer: () => 'ok' });
    expect(await usage(cachedSystem('question 1'))).toMatchObject({
      input_tokens: 5,
      cache_creation_input_tokens: 2000,
      cache_read_input_tokens: 0,
      output_tokens: 1,
    });
    expect(await usage(cachedSystem('question 2'))).toMatchObject({
      input_tokens: 5,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 2000,
    });
    // $3/M input, $3.75/M write, $0.30/M read, $15/M output.
    expect(platform.ledger.entries.map((entry) => Math.round(entry.cost * 1e6))).toEqual([7530, 630]);
  });

  it('caches nothing under the model minimum (1024 Sonnet, 2048 Haiku 3.5) and nothing without a breakpoint', async () => {
    platform = await startAnthropicPlatform({ clock: new ManualClock() });
    const short = 't'.repeat(4000 - 'system: '.length);
    await usage(cachedSystem('q', 'claude-sonnet-4-5', short));
    expect(await usage(cachedSystem('q', 'claude-sonnet-4-5', short))).toMatchObject({
      cache_read_input_tokens: 0,
    });
    await usage(cachedSystem('q', 'claude-3-5-haiku-latest'));
    expect(await usage(cachedSystem('q', 'claude-3-5-haiku-latest'))).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    const plain = { ...cachedSystem('q'), system: SYSTEM };
    await usage(plain);
    expect(await usage(plain)).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it('keeps an entry five minutes from its last use', async () => {
    const clock = new ManualClock();
    platform = await startAnthropicPlatform({ clock });
    await usage(cachedSystem('a'));
    clock.advance(4 * 60_000);
    expect(await usage(cachedSystem('b'))).toMatchObject({ cache_read_input_tokens: 2000 });
    clock.advance(4 * 60_000);
    expect(await usage(cachedSystem('c'))).toMatchObject({ cache_read_input_tokens: 2000 });
    clock.advance(5 * 60_000 + 1);
    expect(await usage(cachedSystem('d'))).toMatchObject({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 2000,
    });
  });

  it('reads a written prefix through the 20-block lookback, and not past it', async () => {
    platform = await startAnthropicPlatform({ clock: new ManualClock() });
    // Blocks of 400 characters = 100 tokens each (the first: "user: " + 394 characters).
    const blocks = (count: number, marked: number) =>
      Array.from({ length: count }, (_, index) => ({
        type: 'text',
        text: `${String(index).padStart(3, '0')}${'b'.repeat(index === 0 ? 391 : 397)}`,
        ...(index === marked ? { cache_control: EPHEMERAL } : {}),
      }));
    const conversation = (count: number, marked: number) => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 16,
      messages: [{ role: 'user', content: blocks(count, marked) }],
    });
    expect(await usage(conversation(12, 11))).toMatchObject({ cache_creation_input_tokens: 1200 });
    expect(await usage(conversation(20, 19))).toMatchObject({
      cache_read_input_tokens: 1200,
      cache_creation_input_tokens: 800,
      input_tokens: 0,
    });
    // The breakpoint at block 45: blocks 26–45 are looked at, the entries at 11 and 19 are not.
    expect(await usage(conversation(46, 45))).toMatchObject({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 4600,
    });
    // Block 15's lookback finds the entry written at block 11 …
    expect(await usage(conversation(46, 15))).toMatchObject({
      cache_read_input_tokens: 1200,
      cache_creation_input_tokens: 400,
    });
    // … a breakpoint before every written one reads nothing: entries exist only where breakpoints were.
    expect(await usage(conversation(46, 10))).toMatchObject({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 1100,
    });
  });

  it('writes 1-hour breakpoints at their own price and refuses a 1-hour one after a 5-minute one', async () => {
    const clock = new ManualClock();
    platform = await startAnthropicPlatform({ clock, answer: () => 'ok' });
    // "user: " + 393 characters + "\n" = 400 characters = 100 tokens after the 2000-token system.
    const twoLifetimes = (first: string, second: string) => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 16,
      system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral', ttl: first } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'q'.repeat(393), cache_control: { type: 'ephemeral', ttl: second } },
          ],
        },
      ],
    });
    expect(await usage(twoLifetimes('1h', '5m'))).toMatchObject({
      input_tokens: 0,
      cache_creation_input_tokens: 2100,
      cache_creation: { ephemeral_1h_input_tokens: 2000, ephemeral_5m_input_tokens: 100 },
    });
    clock.advance(30 * 60_000);
    expect(await usage(twoLifetimes('1h', '5m'))).toMatchObject({
      cache_read_input_tokens: 2000,
      cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 100 },
    });
    // 2000·$6 + 100·$3.75 + $15, then 2000·$0.30 + 100·$3.75 + $15 (per million).
    expect(platform.ledger.entries.map((entry) => Math.round(entry.cost * 1e6))).toEqual([12390, 990]);
    expect((await message(twoLifetimes('5m', '1h'))).status).toBe(400);
  });

  it('refuses a fifth breakpoint, a missing max_tokens and a request without its headers', async () => {
    platform = await startAnthropicPlatform({ clock: new ManualClock() });
    const five = Array.from({ length: 5 }, () => ({ type: 'text', text: 'x', cache_control: EPHEMERAL }));
    const tooMany = await message({
      model: 'claude-sonnet-4-5',
      max_tokens: 8,
      messages: [{ role: 'user', content: five }],
    });
    expect(tooMany).toMatchObject({
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error' } },
    });
    expect(text(tooMany.body, 'error', 'message')).toContain('Found 5');
    const noMax = await message({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'x' }] });
    expect(text(noMax.body, 'error', 'message')).toContain('max_tokens');
    const anonymous = await postJson(`${platform.url}/v1/messages`, cachedSystem('q'));
    expect(anonymous).toMatchObject({ status: 401, body: { error: { type: 'authentication_error' } } });
  });
});

const batches = `/v1/messages/batches`;
const request = (customId: string, question: string) => ({
  custom_id: customId,
  params: cachedSystem(question),
});
const create = (requests: unknown[]) => postJson(`${platform.url}${batches}`, { requests }, HEADERS);
const retrieve = (id: string) => fetchJson(`${platform.url}${batches}/${id}`, { headers: HEADERS });
const resultsOf = async (url: string) => jsonLines(await (await fetch(url, { headers: HEADERS })).text());

describe('Anthropic platform: Message Batches', () => {
  it('processes in_progress → ended, results by custom_id, batch requests reading the cache at half price', async () => {
    platform = await startAnthropicPlatform({ clock: new ManualClock(), answer: () => 'ok' });
    await message(cachedSystem('question 0'));
    const created = await create([
      request('one', 'question 1'),
      { custom_id: 'bad', params: { model: 'x' } },
    ]);
    expect(created.body).toMatchObject({
      type: 'message_batch',
      processing_status: 'in_progress',
      results_url: null,
    });
    const id = text(created.body, 'id');
    const early = await fetchJson(`${platform.url}${batches}/${id}/results`, { headers: HEADERS });
    expect(early.status).toBe(400);
    platform.batches.holdAt = 'in_progress';
    await retrieve(id);
    platform.batches.process(id, 1);
    expect(at((await retrieve(id)).body, 'request_counts')).toMatchObject({ processing: 1, succeeded: 1 });
    platform.batches.holdAt = undefined;
    await retrieve(id);
    const ended = await retrieve(id);
    expect(ended.body).toMatchObject({
      processing_status: 'ended',
      request_counts: { succeeded: 1, errored: 1 },
    });
    const lines = await resultsOf(text(ended.body, 'results_url'));
    expect(lines).toEqual([
      {
        custom_id: 'one',
        result: { type: 'succeeded', message: expect.objectContaining({ type: 'message' }) },
      },
      {
        custom_id: 'bad',
        result: {
          type: 'errored',
          error: { type: 'error', error: expect.objectContaining({ type: 'invalid_request_error' }) },
        },
      },
    ]);
    expect(at(lines[0], 'result', 'message', 'usage', 'cache_read_input_tokens')).toBe(2000);
    expect(platform.ledger.entries.map((entry) => [entry.mode, Math.round(entry.cost * 1e6)])).toEqual([
      ['sync', 7530],
      ['batch', 315],
    ]);
  });

  it('cancels: what was processed stays, the rest is canceled; expires on demand', async () => {
    platform = await startAnthropicPlatform({ clock: new ManualClock() });
    const id = text((await create([request('a', 'x'), request('b', 'y')])).body, 'id');
    platform.batches.holdAt = 'in_progress';
    platform.batches.process(id, 1);
    const canceling = await postJson(`${platform.url}${batches}/${id}/cancel`, {}, HEADERS);
    expect(canceling.body).toMatchObject({ processing_status: 'canceling' });
    const ended = await retrieve(id);
    expect(ended.body).toMatchObject({
      processing_status: 'ended',
      request_counts: { succeeded: 1, canceled: 1 },
    });
    const other = text((await create([request('c', 'z')])).body, 'id');
    platform.batches.expire(other);
    const expired = await retrieve(other);
    expect(await resultsOf(text(expired.body, 'results_url'))).toEqual([
      { custom_id: 'c', result: { type: 'expired' } },
    ]);
    const running = text((await create([request('d', 'w')])).body, 'id');
    const refused = await fetchJson(`${platform.url}${batches}/${running}`, {
      method: 'DELETE',
      headers: HEADERS,
    });
    expect(refused.status).toBe(400);
    const deleted = await fetchJson(`${platform.url}${batches}/${other}`, {
      method: 'DELETE',
      headers: HEADERS,
    });
    expect(deleted.body).toEqual({ id: other, type: 'message_batch_deleted' });
    expect((await retrieve(other)).status).toBe(404);
  });

  it('refuses repeated or malformed custom ids, lists with after_id, cuts a download once, counts submissions', async () => {
    platform = await startAnthropicPlatform({ clock: new ManualClock() });
    expect((await create([request('a', 'x'), request('a', 'y')])).status).toBe(400);
    expect((await create([request('has space', 'x')])).status).toBe(400);
    const first = text((await create([request('a', 'x')])).body, 'id');
    const second = text((await create([request('a', 'x'), request('b', 'y')])).body, 'id');
    const page = await fetchJson(`${platform.url}${batches}?limit=1`, { headers: HEADERS });
    expect(page.body).toMatchObject({ data: [{ id: second }], has_more: true, last_id: second });
    const next = await fetchJson(`${platform.url}${batches}?limit=1&after_id=${second}`, {
      headers: HEADERS,
    });
    expect(next.body).toMatchObject({ data: [{ id: first }], has_more: false });
    await retrieve(first);
    const url = text((await retrieve(first)).body, 'results_url');
    platform.cutNextDownload = true;
    await expect(resultsOf(url)).rejects.toThrow();
    expect(await resultsOf(url)).toHaveLength(1);
    expect(Object.fromEntries(platform.received.batchLines)).toEqual({ a: 2, b: 1 });
  });
});

describe('Anthropic platform: Models API', () => {
  it('knows a claude- id at GET /v1/models/{model_id}, answers 404 not_found_error otherwise, lists its models', async () => {
    platform = await startAnthropicPlatform({ clock: new ManualClock() });
    const known = await fetchJson(`${platform.url}/v1/models/claude-sonnet-4-5`, { headers: HEADERS });
    expect(known.status).toBe(200);
    expect(known.body).toMatchObject({ type: 'model', id: 'claude-sonnet-4-5' });
    const unknown = await fetchJson(`${platform.url}/v1/models/gpt-4o`, { headers: HEADERS });
    expect(unknown.status).toBe(404);
    expect(at(unknown.body, 'error')).toMatchObject({ type: 'not_found_error' });
    const listed = await fetchJson(`${platform.url}/v1/models`, { headers: HEADERS });
    expect(listed.body).toMatchObject({ has_more: false, first_id: 'claude-sonnet-4-5' });
  });
});
