import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIApi } from './openai-api.js';
import { type OpenAIPlatform, startOpenAIPlatform } from './openai-platform.js';
import { ManualClock } from './platform-basics.js';
import { at, jsonLines, text } from './platform-fetch.js';

let platform: OpenAIPlatform;
let api: OpenAIApi;
afterEach(() => platform.close());

async function start() {
  platform = await startOpenAIPlatform({
    flavour: 'azure',
    clock: new ManualClock(),
    answer: (prompt) => (prompt.endsWith('user: C\n') ? { status: 429 } : 'ok'),
    deployments: { 'gpt41-batch': 'gpt-4.1' },
  });
  api = new OpenAIApi(platform.url, { azure: true, endpoint: '/chat/completions' });
}

/** "system: " + 11,991 characters + "\n" = 12,000 characters = 3000 tokens. */
const SHARED = 'z'.repeat(12_000 - 'system: \n'.length);
const body = (question: string, model?: string) => ({
  ...(model ? { model } : {}),
  messages: [
    { role: 'system', content: SHARED },
    { role: 'user', content: question },
  ],
});
const line = (customId: string, question: string, deployment = 'gpt41-batch') =>
  JSON.stringify({
    custom_id: customId,
    method: 'POST',
    url: '/chat/completions',
    body: body(question, deployment),
  });

describe('Azure OpenAI platform', () => {
  it('answers deployments under /openai with api-version, caching as OpenAI does, billed by model', async () => {
    await start();
    const chat = (question: string) => api.post('/deployments/gpt41-batch/chat/completions', body(question));
    expect(at((await chat('A question')).body, 'model')).toBe('gpt-4.1');
    const second = await chat('B question');
    expect(at(second.body, 'usage', 'prompt_tokens_details', 'cached_tokens')).toBe(2944);
    // $2/M input, $0.50/M cached, $8/M output: 3005 tokens then 61 + 2944 cached, 1 output each.
    expect(platform.ledger.entries.map((entry) => [entry.model, Math.round(entry.cost * 1e6)])).toEqual([
      ['gpt-4.1', 6018],
      ['gpt-4.1', 1602],
    ]);
  });

  it("answers Azure's errors: no api-version, an unknown deployment, no key", async () => {
    await start();
    const unversioned = await fetch(`${platform.url}/openai/deployments/gpt41-batch/chat/completions`, {
      method: 'POST',
      headers: { 'api-key': 'k' },
      body: JSON.stringify(body('q')),
    });
    expect(unversioned.status).toBe(404);
    expect(await unversioned.json()).toEqual({ error: { code: '404', message: 'Resource not found' } });
    const unknown = await api.post('/deployments/missing/chat/completions', body('q'));
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'DeploymentNotFound' } } });
    const anonymous = await fetch(api.url('/batches'));
    expect(anonymous.status).toBe(401);
  });

  it('runs a global batch of deployment lines to completed; a line answered with an error goes to the error file', async () => {
    await start();
    const created = await api.submit([line('a', 'A question'), line('b', 'B question'), line('c', 'C')]);
    expect(created.body).toMatchObject({ status: 'validating', endpoint: '/chat/completions' });
    const id = text(created.body, 'id');
    for (let step = 0; step < 3; step++) await api.poll(id);
    const done = await api.poll(id);
    expect(done.body).toMatchObject({
      status: 'completed',
      request_counts: { total: 3, completed: 2, failed: 1 },
    });
    const output = jsonLines(await api.content(text(done.body, 'output_file_id')));
    expect(output.map((entry) => at(entry, 'custom_id'))).toEqual(['a', 'b']);
    expect(at(output[1], 'response', 'body', 'usage', 'prompt_tokens_details', 'cached_tokens')).toBe(2944);
    const [error] = jsonLines(await api.content(text(done.body, 'error_file_id')));
    expect(error).toMatchObject({ custom_id: 'c', response: { status_code: 429 } });
    expect(platform.ledger.entries.map((entry) => [entry.mode, Math.round(entry.cost * 1e6)])).toEqual([
      ['batch', 3009],
      ['batch', 801],
    ]);
  });

  it('fails a batch whose lines address /v1/completions', async () => {
    await start();
    const wrong = JSON.stringify({
      custom_id: 'x',
      method: 'POST',
      url: '/v1/completions',
      body: body('q', 'gpt41-batch'),
    });
    const id = text((await api.submit([wrong])).body, 'id');
    const failed = await api.poll(id);
    expect(failed.body).toMatchObject({
      status: 'failed',
      errors: { data: [{ code: 'invalid_url', line: 1 }] },
    });
  });
});
