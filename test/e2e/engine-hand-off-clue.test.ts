import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { type LlmTestServer, type RecordedRequest, startLlmTestServer } from '../support/llm-test-server.js';
import { answerBatchFile } from '../support/openai-batch-stand-in.js';
import { reportJson, runCli, temporaryHome } from './cli.js';

// `export requests clue --data …`: a suite's own run (its plan) handed to an engine, as `run --dataset`'s is.
const data = mkdtempSync(join(tmpdir(), 'medbench-clue-hand-off-'));
let server: LlmTestServer;

/** Answers that vary by prompt, so equal reports mean the same answers in the same places. */
function answer(request: RecordedRequest) {
  const messages = request.body.messages as Array<{ content: string }>;
  const length = messages.map((message) => message.content).join('').length;
  if (messages.some((message) => message.content.includes('BEGIN DOCUMENTS')))
    return { kind: 'answer' as const, text: `The correct answer is ${'ABCDE'[length % 5]}: x.` };
  return { kind: 'answer' as const, text: length % 2 === 0 ? 'ENTAILMENT' : `Fever ${length}` };
}

beforeAll(async () => {
  writeClueFixtures(data);
  server = await startLlmTestServer({ fallback: answer });
});
afterAll(async () => {
  await server.close();
  rmSync(data, { recursive: true, force: true });
});

const options = () => [
  ...['clue', '--data', data, '--model', `openai-compatible:clinical@${server.url}/v1`],
  ...['--context-window', '8000', '--tokenizer', 'o200k_base', '--tasks', 'mednli,longhealth'],
];

/** The report as JSON, without the moments it was made and where its answers came from. */
function report(home: string): Promise<unknown> {
  return reportJson(home, 'clue', ['generatedAt', 'createdAt', 'sent', 'cached']);
}

describe('export requests clue → an engine → import responses → run clue', () => {
  it('the run completes from the imported answers without a request; a prompt LongHealth repeats is one line', async () => {
    const synchronous = temporaryHome();
    const ran = await runCli(['--home', synchronous, 'run', ...options()]);
    expect(ran.code, ran.stderr).toBe(0);
    const distinct = new Set(server.requests.map((request) => request.rawBody)).size;
    server.requests.length = 0;

    const home = temporaryHome();
    const requests = join(data, 'requests.jsonl');
    const exported = await runCli(['--home', home, 'export', 'requests', '--out', requests, ...options()]);
    expect(exported.code, exported.stderr).toBe(0);
    const written = readFileSync(requests, 'utf8').trim().split('\n');
    expect(written).toHaveLength(distinct);
    expect(exported.stdout).toMatch(
      /of which 0 done already, 0 answered by the response cache, 0 too long .*, [1-9]\d* sharing another sample's request/,
    );
    expect(server.requests.length).toBe(0);

    const results = join(data, 'results.jsonl');
    answerBatchFile(requests, results, answer);
    expect((await runCli(['--home', home, 'import', 'responses', results])).code).toBe(0);
    const completed = await runCli(['--home', home, 'run', ...options()]);
    expect(completed.code, completed.stderr).toBe(0);
    expect(server.requests.length).toBe(0);
    expect(await report(home)).toEqual(await report(synchronous));
  });

  it('refuses a suite without its --data, and an unknown suite', async () => {
    const home = temporaryHome();
    const out = join(data, 'never.jsonl');
    const model = ['--model', `openai-compatible:clinical@${server.url}/v1`];
    const noData = await runCli(['--home', home, 'export', 'requests', 'clue', '--out', out, ...model]);
    expect(noData.code).toBe(2);
    expect(noData.stderr).toContain('export requests clue needs --data');
    const unknown = await runCli(['--home', home, 'export', 'requests', 'nosuch', '--out', out, ...model]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown suite "nosuch"');
  });
});
