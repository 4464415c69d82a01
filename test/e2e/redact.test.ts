import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { filesUnder, textLeaks } from '../support/file-leaks.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, ROOT, runCli, temporaryHome } from './cli.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah.jsonl');
let server: LlmTestServer;

// Text that must never reach disk under --redact: the prompts' haystack and needles, the
// questions, the gold answers, and what the model answered (the server's own marker).
const SECRETS = [
  'Chronic myeloid leukemia',
  'Marrow Island',
  'kite festival',
  'Odile Varga',
  'first Sunday of October',
  'veltrazumab',
  'every two weeks',
  'ZEBRA-7731',
];

beforeAll(async () => {
  await buildSampleNiah(dataset);
  server = await startLlmTestServer({
    fallback: (request) => {
      const prompt = JSON.stringify(request.body.messages);
      // Half the answers right (scores must not depend on redaction), each with the marker.
      const answer = prompt.includes('Marrow Island') ? 'Odile Varga' : 'no idea';
      return { kind: 'answer', text: `{"answer": "${answer} ZEBRA-7731"}` };
    },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

const run = (home: string, ...extra: string[]) =>
  runCli([
    '--home',
    home,
    'run',
    '--dataset',
    dataset,
    '--model',
    `openai-compatible:m@${server.url}/v1`,
    '--context-window',
    '128000',
    ...extra,
  ]);

describe('--redact', () => {
  it('no prompt, output, gold or error text reaches the store, the terminal or the static report; scores are the same', async () => {
    const home = temporaryHome();
    // The first request is refused with an error body that echoes the prompt, as some servers do.
    server.script.push({
      kind: 'status',
      status: 400,
      body: JSON.stringify({
        error: { message: 'context too long: The lighthouse keeper on Marrow Island …' },
      }),
    });
    const redacted = await run(home, '--redact');
    expect(redacted.code).toBe(3); // one sample without an answer (the 400)
    expect(SECRETS.filter((secret) => `${redacted.stdout}${redacted.stderr}`.includes(secret))).toEqual([]);
    const site = join(scratch, 'site');
    const html = await runCli(['--home', home, 'report', '--html', site]);
    expect(html.code).toBe(0);
    // Every byte medbench wrote: the store (with its WAL and claims files) and the static site.
    expect(textLeaks(home, SECRETS)).toEqual([]);
    expect(textLeaks(site, SECRETS)).toEqual([]);
    // The static site says what was redacted (hashes and lengths).
    expect(filesUnder(site).some((path) => readFileSync(path, 'utf8').includes('outputSha256'))).toBe(true);

    const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
    const count = (sql: string) => (database.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT COUNT(*) AS n FROM prompts')).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM responses')).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM results')).toBe(20);
    expect(
      count(
        "SELECT COUNT(*) AS n FROM results WHERE raw_output IS NULL AND parsed_json IS NULL AND gold_json = 'null' AND redaction_json IS NOT NULL",
      ),
    ).toBe(20);
    const failed = database.prepare("SELECT error FROM results WHERE status = 'error'").all() as Array<{
      error: string;
    }>;
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error).toMatch(/^\[redacted: \d+ characters\]$/);
    const hashes = database.prepare('SELECT redaction_json FROM results').all() as Array<{
      redaction_json: string;
    }>;
    for (const { redaction_json } of hashes) {
      const redaction = JSON.parse(redaction_json);
      expect(redaction.promptSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(redaction.goldSha256).toMatch(/^[0-9a-f]{64}$/);
    }
    database.close();

    // The same run without --redact (a run of its own) scores every answered sample the same.
    const plain = await run(home);
    expect(plain.code).toBe(0);
    const again = new Database(join(home, 'medbench.sqlite'), { readonly: true });
    const rows = again
      .prepare(
        'SELECT run_id, sample_id, status, scores_json, redaction_json FROM results ORDER BY sample_id',
      )
      .all() as Array<{
      run_id: string;
      sample_id: string;
      status: string;
      scores_json: string;
      redaction_json: string | null;
    }>;
    again.close();
    const redactedRows = rows.filter((row) => row.redaction_json !== null);
    const plainRows = rows.filter((row) => row.redaction_json === null);
    expect([redactedRows.length, plainRows.length]).toEqual([20, 20]);
    expect(new Set(rows.map((row) => row.run_id)).size).toBe(2);
    const plainScores = new Map(plainRows.map((row) => [row.sample_id, row.scores_json]));
    const answered = redactedRows.filter((row) => row.status !== 'error');
    expect(answered).toHaveLength(19);
    for (const row of answered) expect(row.scores_json).toBe(plainScores.get(row.sample_id));
    // Some answers were right and some wrong: the comparison is not between constant scores.
    expect(new Set(answered.map((row) => row.scores_json)).size).toBeGreaterThan(1);
  });

  it('CLUE, model and baseline: none of the notes, questions, gold or answers is stored', async () => {
    const home = temporaryHome();
    const data = join(scratch, 'clue');
    mkdirSync(data, { recursive: true });
    writeClueFixtures(data);
    const clueSecrets = [
      'pneumonia',
      'Premise',
      'Hypothesis',
      'metformin',
      'Why was I admitted',
      'severe',
      'Is drug',
      'ZEBRA-7731',
    ];
    const clue = (model: string, ...extra: string[]) =>
      runCli([
        '--home',
        home,
        'run',
        'clue',
        '--data',
        data,
        '--model',
        model,
        '--redact',
        '--umls',
        join(data, 'MRCONSO.RRF'),
        '--icd10',
        join(data, 'icd10cm_codes_2024.txt'),
        ...extra,
      ]);
    const model = await clue(
      `openai-compatible:m@${server.url}/v1`,
      '--tokenizer',
      'o200k_base',
      '--context-window',
      '8000',
    );
    expect(model.stderr).not.toMatch(/error \[/);
    expect(model.code).toBe(0);
    const baseline = await clue('baseline');
    expect(baseline.code).toBe(0);
    expect(textLeaks(home, clueSecrets)).toEqual([]);
    const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
    const rows = database.prepare('SELECT COUNT(*) AS n, COUNT(redaction_json) AS r FROM results').get() as {
      n: number;
      r: number;
    };
    database.close();
    expect(rows.n).toBeGreaterThan(40);
    expect(rows.r).toBe(rows.n);
    // --redact and BERTScore (computed afterwards from stored outputs) do not go together.
    const both = await clue('baseline', '--bertscore-model', data);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--redact cannot be combined with --bertscore-model');
  });

  it('MedEureka: query texts, rankings and target texts are not stored; the scores are the same', async () => {
    const home = temporaryHome();
    const data = join(ROOT, 'samples', 'medeureka');
    const medeureka = (...extra: string[]) =>
      runCli(['--home', home, 'run', 'medeureka', '--data', data, '--model', 'bm25', ...extra]);
    expect((await medeureka('--redact')).code).toBe(0);
    expect(textLeaks(home, ['二甲双胍', '阿司匹林', '华法林', '呋塞米'])).toEqual([]);
    expect((await medeureka()).code).toBe(0);
    const report = JSON.parse(
      (await runCli(['--home', home, 'report', '--suite', 'medeureka', '--json'])).stdout,
    );
    expect(report.runs).toHaveLength(2);
    expect(report.runs[0].datasets).toEqual(report.runs[1].datasets);
    expect(Object.keys(report.runs[0].datasets).length).toBeGreaterThan(2);
  });
});
