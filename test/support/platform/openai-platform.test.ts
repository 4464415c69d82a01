import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIApi } from './openai-api.js';
import { type OpenAIPlatform, startOpenAIPlatform } from './openai-platform.js';
import { ManualClock } from './platform-basics.js';
import { at, jsonLines, text } from './platform-fetch.js';

let platform: OpenAIPlatform;
afterEach(() => platform.close());

const clock = () => new ManualClock();

const line = (customId: string, text: string, model = 'gpt-4.1') =>
  JSON.stringify({
    custom_id: customId,
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model, messages: [{ role: 'user', content: text }] },
  });

let api: OpenAIApi;
async function start(options: Parameters<typeof startOpenAIPlatform>[0]) {
  platform = await startOpenAIPlatform(options);
  api = new OpenAIApi(platform.url);
}
const submit = (lines: string[]) => api.submit(lines);
const poll = (id: string) => api.poll(id);
const content = (id: string) => api.content(id);
const jsonl = jsonLines;

describe('OpenAI platform: files and the batch lifecycle', () => {
  it('moves a batch validating → in_progress → finalizing → completed, held where the test says', async () => {
    await start({ clock: clock(), answer: (prompt) => `echo ${prompt.length}` });
    const created = await submit([line('a', 'first'), line('b', 'second')]);
    expect(created.body).toMatchObject({ object: 'batch', status: 'validating', completion_window: '24h' });
    platform.batches.holdAt = 'in_progress';
    expect(at((await poll(text(created.body, 'id'))).body, 'status')).toBe('in_progress');
    expect(at((await poll(text(created.body, 'id'))).body, 'status')).toBe('in_progress');
    platform.batches.process(text(created.body, 'id'), 1);
    expect(at((await poll(text(created.body, 'id'))).body, 'request_counts')).toEqual({
      total: 2,
      completed: 1,
      failed: 0,
    });
    platform.batches.holdAt = undefined;
    expect(at((await poll(text(created.body, 'id'))).body, 'status')).toBe('finalizing');
    const done = await poll(text(created.body, 'id'));
    expect(done.body).toMatchObject({ status: 'completed', error_file_id: null });
    const output = jsonl(await content(text(done.body, 'output_file_id')));
    expect(output.map((entry) => at(entry, 'custom_id'))).toEqual(['a', 'b']);
    expect(output[0]).toMatchObject({ response: { status_code: 200 }, error: null });
    expect(at(output[0], 'response', 'body', 'choices', 0, 'message', 'content')).toBe('echo 12');
    expect(platform.ledger.entries.map((entry) => entry.mode)).toEqual(['batch', 'batch']);
  });

  it('fails a batch whose file repeats a custom_id, naming the line, and answers nothing', async () => {
    await start({ clock: clock() });
    const created = await submit([line('same', 'one'), line('same', 'two')]);
    const failed = await poll(text(created.body, 'id'));
    expect(at(failed.body, 'status')).toBe('failed');
    expect(at(failed.body, 'errors', 'data')).toEqual([
      expect.objectContaining({ code: 'duplicate_custom_id', line: 2 }),
    ]);
    expect(at(failed.body, 'output_file_id')).toBeNull();
    expect(platform.ledger.entries).toEqual([]);
  });

  it('refuses what the reference refuses: no purpose, not JSONL, an unknown file, another window', async () => {
    await start({ clock: clock() });
    const noPurpose = await api.upload('{}', null);
    expect(noPurpose).toMatchObject({ status: 400, body: { error: { param: 'purpose' } } });
    expect((await api.upload('not json\n')).status).toBe(400);
    expect((await fetch(`${platform.url}/v1/batches`)).status).toBe(401);
    const create = (body: object) => api.post('/batches', body);
    const unknown = await create({
      input_file_id: 'file-x',
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    expect(unknown.status).toBe(404);
    const file = await api.upload(`${line('a', 'x')}\n`);
    const window = await create({
      input_file_id: text(file.body, 'id'),
      endpoint: '/v1/chat/completions',
      completion_window: '48h',
    });
    expect(window).toMatchObject({ status: 400, body: { error: { param: 'completion_window' } } });
    const metadata = Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`k${index}`, 'v']));
    const crowded = await create({
      input_file_id: text(file.body, 'id'),
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata,
    });
    expect(crowded).toMatchObject({ status: 400, body: { error: { param: 'metadata' } } });
    expect((await poll('batch_missing')).status).toBe(404);
  });

  it('cancels: processed lines keep their answers, the rest go to the error file as batch_cancelled', async () => {
    await start({ clock: clock() });
    const created = await submit([line('a', 'one'), line('b', 'two')]);
    platform.batches.holdAt = 'in_progress';
    await poll(text(created.body, 'id'));
    platform.batches.process(text(created.body, 'id'), 1);
    const cancelling = await api.post(`/batches/${text(created.body, 'id')}/cancel`, {});
    expect(at(cancelling.body, 'status')).toBe('cancelling');
    const cancelled = await poll(text(created.body, 'id'));
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      request_counts: { total: 2, completed: 1, failed: 1 },
    });
    expect(
      jsonl(await content(text(cancelled.body, 'output_file_id'))).map((entry) => at(entry, 'custom_id')),
    ).toEqual(['a']);
    const [error] = jsonl(await content(text(cancelled.body, 'error_file_id')));
    expect(error).toMatchObject({ custom_id: 'b', response: null, error: { code: 'batch_cancelled' } });
    expect(platform.ledger.entries).toHaveLength(1);
  });

  it('expires a batch on demand and fails one on demand', async () => {
    await start({ clock: clock() });
    const first = await submit([line('a', 'one')]);
    platform.batches.expire(text(first.body, 'id'));
    const expired = await poll(text(first.body, 'id'));
    expect(at(expired.body, 'status')).toBe('expired');
    expect(at(jsonl(await content(text(expired.body, 'error_file_id')))[0], 'error', 'code')).toBe(
      'batch_expired',
    );
    const second = await submit([line('b', 'two')]);
    platform.batches.fail(text(second.body, 'id'));
    expect(at((await poll(text(second.body, 'id'))).body, 'status')).toBe('failed');
  });

  it('expires a batch still running 24 hours after creation, and deletes files', async () => {
    const time = clock();
    await start({ clock: time });
    const created = await submit([line('a', 'one')]);
    platform.batches.holdAt = 'in_progress';
    await poll(text(created.body, 'id'));
    time.advance(24 * 3_600_000);
    expect(at((await poll(text(created.body, 'id'))).body, 'status')).toBe('expired');
    const file = text(created.body, 'input_file_id');
    expect((await api.json(`/files/${file}`, { method: 'DELETE' })).body).toEqual({
      id: file,
      object: 'file',
      deleted: true,
    });
    expect((await api.json(`/files/${file}`)).status).toBe(404);
  });

  it('lists batches newest first with after and limit', async () => {
    await start({ clock: clock() });
    const ids = [];
    for (const name of ['a', 'b', 'c']) ids.push(text((await submit([line(name, name)])).body, 'id'));
    const first = await api.json('/batches?limit=2');
    expect((at(first.body, 'data') as unknown[]).map((batch) => at(batch, 'id'))).toEqual([ids[2], ids[1]]);
    expect(at(first.body, 'has_more')).toBe(true);
    const next = await api.json(`/batches?limit=2&after=${text(first.body, 'last_id')}`);
    expect(next.body).toMatchObject({ data: [{ id: ids[0] }], has_more: false });
  });

  it('cuts the next download halfway once, and counts every line ever submitted', async () => {
    await start({ clock: clock() });
    const created = await submit([line('a', 'one'), line('b', 'two')]);
    await submit([line('a', 'again')]);
    for (let step = 0; step < 3; step++) await poll(text(created.body, 'id'));
    const done = await poll(text(created.body, 'id'));
    platform.cutNextDownload = true;
    await expect(content(text(done.body, 'output_file_id'))).rejects.toThrow();
    expect(jsonl(await content(text(done.body, 'output_file_id')))).toHaveLength(2);
    expect(Object.fromEntries(platform.received.batchLines)).toEqual({ a: 2, b: 1 });
    expect(platform.received).toMatchObject({ files: 2, batchesCreated: 2, resultDownloads: 2 });
  });
});

const CACHED = ['usage', 'prompt_tokens_details', 'cached_tokens'];
const SHARED = 'x'.repeat(12_000 - 'system: \n'.length);
const chat = (question: string, key?: string) =>
  api.post('/chat/completions', {
    model: 'gpt-4.1',
    messages: [
      { role: 'system', content: SHARED },
      { role: 'user', content: question },
    ],
    ...(key ? { prompt_cache_key: key } : {}),
  });

describe('OpenAI platform: automatic prompt caching and the ledger', () => {
  it('serves a shared 3000-token prefix from cache in 128-token steps and bills it', async () => {
    const time = clock();
    await start({ clock: time, answer: () => 'ok' });
    // Prompt: 12,000 characters of shared prefix + "user: A question\n" (17) = 3005 tokens.
    const first = await chat('A question');
    expect(at(first.body, 'usage')).toMatchObject({
      prompt_tokens: 3005,
      prompt_tokens_details: { cached_tokens: 0 },
    });
    const second = await chat('B question');
    // Shared 3000 tokens → 1024 + 15·128 = 2944 cached.
    expect(at(second.body, ...CACHED)).toBe(2944);
    expect(at((await chat('C question', 'another-key')).body, ...CACHED)).toBe(0);
    time.advance(6 * 60_000);
    expect(at((await chat('D question')).body, ...CACHED)).toBe(0);
    // $2/M input, $0.50/M cached, $8/M output; the second: 61·2 + 2944·0.5 + 1·8 = 1602 micro-dollars.
    const costs = platform.ledger.entries.map((entry) => Math.round(entry.cost * 1e6));
    expect(costs).toEqual([6018, 1602, 6018, 6018]);
    expect(platform.ledger.totals()).toMatchObject({ requests: 4, cachedInputTokens: 2944, outputTokens: 4 });
  });

  it('caches nothing under 1024 tokens and answers a bad body with its documented 400', async () => {
    await start({ clock: clock() });
    const short = { model: 'gpt-4.1', messages: [{ role: 'user', content: 'y'.repeat(4000) }] };
    for (let count = 0; count < 2; count++) {
      const answered = await api.post('/chat/completions', short);
      expect(at(answered.body, ...CACHED)).toBe(0);
    }
    const bad = await api.post('/chat/completions', { model: 'gpt-4.1' });
    expect(bad).toMatchObject({
      status: 400,
      body: { error: { type: 'invalid_request_error', param: 'messages' } },
    });
  });
});
