import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, type RecordedRequest, startLlmTestServer } from '../support/llm-test-server.js';
import { answerBatchFile } from '../support/openai-batch-stand-in.js';
import { buildSampleNiah, reportJson, runCli, temporaryHome } from './cli.js';
import { storeDigest, storeSnapshot } from './store-snapshot.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah-counting.jsonl');
let server: LlmTestServer;

/** Answers that vary by sample: equal reports mean the same answers in the same places. */
function answer(request: RecordedRequest) {
  const prompt = (request.body.messages as Array<{ content: string }>)
    .map((message) => message.content)
    .join('');
  return {
    kind: 'answer' as const,
    text: JSON.stringify({ answer: prompt.length % 3 === 0 ? 'Odile Varga' : `x${prompt.length % 7}` }),
  };
}

beforeAll(async () => {
  await buildSampleNiah(dataset, '2000', 'niah,counting');
  server = await startLlmTestServer({ fallback: answer });
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** `run`'s options, which `export requests` takes too: the same run, the same cache keys. */
const runOptions = (baseURL = `${server.url}/v1`) => [
  ...['--dataset', dataset, '--model', `openai-compatible:m@${baseURL}`],
  ...['--context-window', '128000', '--temperature', '0.2'],
];
const run = (home: string, baseURL?: string) => runCli(['--home', home, 'run', ...runOptions(baseURL)]);
const exportRequests = (home: string, out: string, baseURL?: string) =>
  runCli([
    ...['--home', home, 'export', 'requests', '--format', 'openai-batch', '--out', out],
    ...runOptions(baseURL),
  ]);
const importResponses = (home: string, file: string) => runCli(['--home', home, 'import', 'responses', file]);

/** The report as JSON, without the moments it was made and its runs were created. */
function report(home: string): Promise<unknown> {
  return reportJson(home, 'medodyssey', ['generatedAt', 'createdAt']);
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('engine hand-off: export requests → an engine answers the file → import responses → run', () => {
  it('the run completes from the imported answers without a request, and reports what a synchronous run does', async () => {
    const synchronous = temporaryHome();
    const ran = await run(synchronous);
    expect(ran.code, ran.stderr).toBe(0);
    const sent = server.requests.map((request) => request.body);
    expect(sent.length).toBeGreaterThan(20);
    server.requests.length = 0;
    server.probes.length = 0;

    const home = temporaryHome();
    const requests = join(scratch, 'requests.jsonl');
    const exported = await exportRequests(home, requests);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(`Wrote ${sent.length} requests of run`);
    // Nothing is sent to export.
    expect(server.requests.length + server.probes.length + server.counts.length).toBe(0);
    // Each line is an OpenAI batch request carrying exactly the body the synchronous run sent.
    const written = lines(requests);
    expect(written.every((line) => line.method === 'POST' && line.url === '/v1/chat/completions')).toBe(true);
    expect(new Set(written.map((line) => line.custom_id)).size).toBe(written.length);
    const canonical = (bodies: unknown[]) => bodies.map((body) => JSON.stringify(body)).sort();
    expect(canonical(written.map((line) => line.body))).toEqual(canonical(sent));
    expect((written[0]!.body as Record<string, unknown>).temperature).toBe(0.2);

    const results = join(scratch, 'results.jsonl');
    answerBatchFile(requests, results, answer);
    const imported = await importResponses(home, results);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`Imported ${sent.length} answers`);

    const completed = await run(home);
    expect(completed.code, completed.stderr).toBe(0);
    expect(server.requests.length).toBe(0);
    // Identical, but for where the answers came from: the engine's file, through the cache.
    const handedOff = (await report(home)) as { usage: Array<Record<string, unknown>> };
    const direct = (await report(synchronous)) as { usage: Array<Record<string, unknown>> };
    for (const row of handedOff.usage) expect(row).toMatchObject({ sent: 0, cached: row.samples });
    for (const row of direct.usage) expect(row).toMatchObject({ sent: row.samples, cached: 0 });
    const withoutOrigin = (printed: { usage: Array<Record<string, unknown>> }) => ({
      ...printed,
      usage: printed.usage.map(({ sent: _sent, cached: _cached, ...row }) => row),
    });
    expect(withoutOrigin(handedOff)).toEqual(withoutOrigin(direct));

    // Done: a second export writes nothing; importing the file again adds nothing.
    const again = await exportRequests(home, join(scratch, 'again.jsonl'));
    expect(again.stdout).toContain('Wrote 0 requests');
    expect(again.stdout).toContain(`of which ${sent.length} done already`);
    const before = storeDigest(home);
    const twice = await importResponses(home, results);
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stdout).toContain(
      `Imported 0 answers from ${results} into the response cache (${sent.length} were there already`,
    );
    expect(storeDigest(home)).toBe(before);
  });

  it('needs no server: the engine answered offline, and the run completes with its endpoint down', async () => {
    // A port nothing listens on: the model's URL only names it (the cache keys hold it).
    const gone = await startLlmTestServer();
    const baseURL = `${gone.url}/v1`;
    await gone.close();
    const home = temporaryHome();
    const requests = join(scratch, 'offline-requests.jsonl');
    expect((await exportRequests(home, requests, baseURL)).code).toBe(0);
    const results = join(scratch, 'offline-results.jsonl');
    const { requests: answered } = answerBatchFile(requests, results, answer);
    expect((await importResponses(home, results)).code).toBe(0);
    const completed = await run(home, baseURL);
    expect(completed.code, completed.stderr).toBe(0);
    expect(completed.stderr).toContain(
      `Done: ${answered.length} new, 0 from before, ${answered.length} from cache, 0 too_long, 0 errors`,
    );
    const stored = (await report(home)) as { usage: Array<{ samples: number; cached: number }> };
    expect(stored.usage.reduce((sum, row) => sum + row.cached, 0)).toBe(answered.length);
  });

  it('failed lines are reported, not cached: the next export carries only those, and the run sends nothing else', async () => {
    const home = temporaryHome();
    const requests = join(scratch, 'failing-requests.jsonl');
    expect((await exportRequests(home, requests)).code).toBe(0);
    const total = lines(requests).length;
    const results = join(scratch, 'failing-results.jsonl');
    let index = 0;
    answerBatchFile(requests, results, (request) =>
      index++ < 3 ? { kind: 'status', status: 500 } : answer(request),
    );
    const imported = await importResponses(home, results);
    expect(imported.code).toBe(3);
    expect(imported.stdout).toContain(`Imported ${total - 3} answers`);
    expect(imported.stdout).toContain(`3 of ${total} lines failed`);
    expect(imported.stderr).toContain('line 1 (');
    expect(imported.stderr).toContain('status 500');

    const retry = join(scratch, 'retry.jsonl');
    const exported = await exportRequests(home, retry);
    expect(exported.stdout).toContain('Wrote 3 requests');
    expect(exported.stdout).toContain(`${total - 3} answered by the response cache`);
    expect(lines(retry).map((line) => line.custom_id)).toEqual(
      lines(requests)
        .slice(0, 3)
        .map((line) => line.custom_id),
    );
    server.requests.length = 0;
    expect((await run(home)).code).toBe(0);
    expect(server.requests.length).toBe(3);
  });

  it('refuses a file with an answer to a request this home never exported, or a line that is no batch output, storing nothing', async () => {
    const home = temporaryHome();
    const requests = join(scratch, 'refused-requests.jsonl');
    expect((await exportRequests(home, requests)).code).toBe(0);
    const results = join(scratch, 'refused-results.jsonl');
    answerBatchFile(requests, results, answer);
    const good = readFileSync(results, 'utf8');
    const before = storeDigest(home);
    const snapshot = storeSnapshot(home);

    const stranger = good.replace(/"custom_id":"[0-9a-f]+"/, '"custom_id":"request-1"');
    writeFileSync(results, stranger);
    const refused = await importResponses(home, results);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${results}:1: custom_id "request-1" is not a request medbench exported to this home`,
    );
    expect(refused.stderr).toContain('hint: Import the answers into the home');

    writeFileSync(results, `${good}{"custom_id": 3}\n`);
    const malformed = await importResponses(home, results);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain(`${results}:${good.split('\n').length}: field "custom_id"`);

    const notChat = good.replace(/"choices":\[/, '"options":[');
    writeFileSync(results, notChat);
    const wrongBody = await importResponses(home, results);
    expect(wrongBody.code).toBe(1);
    expect(wrongBody.stderr).toContain(`${results}:1: its response body is not a chat completion`);

    // Another home never exported these requests.
    writeFileSync(results, good);
    const elsewhere = await importResponses(temporaryHome(), results);
    expect(elsewhere.code).toBe(1);
    expect(storeDigest(home)).toBe(before);
    expect(storeSnapshot(home)).toEqual(snapshot);
  });

  it('needs no API key: it sends nothing (as --dry-run); the run that sends asks for it', async () => {
    const home = temporaryHome();
    const out = join(scratch, 'keyless.jsonl');
    const config = join(scratch, 'keyless.config.json');
    // The key variable is left out of the child's environment (runCli passes only PATH and HOME).
    const endpoints = [{ baseURL: `${server.url}/v1`, apiKeyEnv: 'MEDBENCH_UNSET_KEY' }];
    writeFileSync(
      config,
      JSON.stringify({ models: { g: { provider: 'openai', model: 'gpt-4o', endpoints } } }),
    );
    const options = ['--dataset', dataset, '--model', 'g', '--config', config, '--context-window', '128000'];
    const sent = server.requests.length;
    const exported = await runCli([
      ...['--home', home, 'export', 'requests', '--format', 'openai-batch', '--out', out],
      ...options,
    ]);
    expect(exported.stderr).not.toMatch(/error \[/);
    expect(exported.code).toBe(0);
    expect(lines(out).length).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(sent);
    const ran = await runCli(['--home', home, 'run', ...options]);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain(
      'error [MISSING_SECRET] The environment variable MEDBENCH_UNSET_KEY is not set.',
    );
    rmSync(home, { recursive: true, force: true });
  });

  it('refuses a model without an OpenAI batch form, and a run with nothing to name', async () => {
    const home = temporaryHome();
    const out = join(scratch, 'never.jsonl');
    const completions = await runCli([
      ...['--home', home, 'export', 'requests', '--out', out],
      ...runOptions(),
      '--completions',
    ]);
    expect(completions.code).toBe(2);
    expect(completions.stderr).toContain('has no OpenAI batch form');
    const noDataset = await runCli([
      ...['--home', home, 'export', 'requests', '--out', out],
      ...['--model', `openai-compatible:m@${server.url}/v1`],
    ]);
    expect(noDataset.code).toBe(2);
    expect(noDataset.stderr).toContain('export requests needs --dataset <file>');
    expect(storeSnapshot(home)).toBe('absent');
  });
});
