import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddingTestServer } from '../support/embedding-test-server.js';
import { writeTinyOnnxModel } from '../support/tiny-onnx-model.js';
import { ROOT, runCli, temporaryHome } from './cli.js';
import { storeSnapshot } from './store-snapshot.js';

const home = temporaryHome();
const scratch = mkdtempSync(join(tmpdir(), 'medbench-medeureka-'));
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

/** `run medeureka` on the sample's AskAPatient_en and Study_en, without a model yet. */
const twoTasks = (home: string) => [
  ...['--home', home, 'run', 'medeureka', '--data', join(ROOT, 'samples', 'medeureka')],
  ...['--tasks', 'AskAPatient_en,Study_en'],
];

describe('medbench run medeureka (built CLI)', () => {
  it('ranks the sample with BM25 and LSA and reports MRR@n and Exact HR@n per dataset', async () => {
    const data = join(ROOT, 'samples', 'medeureka');
    for (const model of ['bm25', 'lsa']) {
      const result = await runCli(['--home', home, 'run', 'medeureka', '--data', data, '--model', model]);
      expect(result.stderr).not.toMatch(/error \[/);
      expect(result.code).toBe(0);
    }
    const report = JSON.parse(
      (await runCli(['--home', home, 'report', '--suite', 'medeureka', '--json'])).stdout,
    );
    expect(report.runs.map((run: { label: string }) => run.label).sort()).toEqual(['bm25', 'lsa']);
    for (const run of report.runs) {
      // Study_en is read as Literature_en (Literature II); Term I pools its two sub-corpora (3 + 2 queries).
      expect(Object.keys(run.datasets).sort()).toEqual([
        'Dialogue II',
        'KB I',
        'Literature II',
        'Term I',
        'Term III',
      ]);
      expect(run.datasets['Term I'].queries).toBe(5);
      for (const scores of Object.values(run.datasets) as Array<Record<string, number>>) {
        // Every corpus is smaller than 500, so every target is ranked: Exact HR@500 = 100.
        expect(scores['hr@500']).toBe(100);
        expect(scores['mrr@1']).toBeLessThanOrEqual(scores['mrr@10']!);
        expect(scores['hr@1']).toBeLessThanOrEqual(scores['hr@5']!);
      }
    }
    const text = (await runCli(['--home', home, 'report', '--suite', 'medeureka'])).stdout;
    expect(text).toContain('MedEureka — MRR@10 (%)');
    expect(text).toContain('MedEureka — Exact HR@10 (%)');
  });

  it('export logs --format mteb: a TaskResult per dataset; imported into a fresh home, the MTEB table is the same', async () => {
    const out = join(scratch, 'mteb');
    const exported = await runCli(['--home', home, 'export', 'logs', '--format', 'mteb', '--out', out]);
    expect(exported.code).toBe(0);
    const files = exported.stdout.trim().split('\n');
    const taskFiles = files.filter((file) => !file.endsWith('model_meta.json'));
    // bm25 and lsa, five datasets each, in embeddings-benchmark/results' layout
    expect(files.filter((file) => file.endsWith('model_meta.json'))).toHaveLength(2);
    expect(taskFiles.map((file) => file.slice(out.length + 1)).sort()).toEqual(
      ['bm25', 'lsa'].flatMap((model) =>
        ['DialogueII', 'KBI', 'LiteratureII', 'TermI', 'TermIII'].map(
          (task) => `${model}/no_revision_available/MedEureka${task}.json`,
        ),
      ),
    );
    const termI = JSON.parse(
      readFileSync(join(out, 'bm25/no_revision_available/MedEurekaTermI.json'), 'utf8'),
    );
    expect(Object.keys(termI)).toEqual([
      'dataset_revision',
      'task_name',
      'mteb_version',
      'scores',
      'evaluation_time',
      'kg_co2_emissions',
      'date',
      'evaluation_phases',
    ]);
    expect(termI.scores.test[0]).toMatchObject({ hf_subset: 'default', languages: ['cmn-Hans'] });
    expect(termI.scores.test[0].main_score).toBe(termI.scores.test[0].ndcg_at_10);

    const fresh = join(scratch, 'fresh-home');
    const imported = await runCli(['--home', fresh, 'import', 'mteb', ...taskFiles]);
    expect(imported.stderr).not.toMatch(/error \[/);
    expect(imported.stdout).toContain('bm25: 5 task results imported');
    const reportOf = async (from: string) => {
      const document = JSON.parse(
        (await runCli(['--home', from, 'report', '--suite', 'medeureka', '--json', '--no-intervals'])).stdout,
      );
      return document.mteb.map(({ runId: _, source, ...row }: { runId: string; source: string }) => ({
        source,
        row,
      }));
    };
    const [original, copy] = [await reportOf(home), await reportOf(fresh)];
    expect(original).toHaveLength(10);
    expect(original.every((entry: { source: string }) => entry.source === 'medbench')).toBe(true);
    expect(copy.every((entry: { source: string }) => entry.source === 'imported')).toBe(true);
    expect(copy.map((entry: { row: unknown }) => entry.row)).toEqual(
      original.map((entry: { row: unknown }) => entry.row),
    );
    // the text table: the same cells but for the Source column, which says imported
    const table = async (from: string) =>
      (await runCli(['--home', from, 'report', '--suite', 'medeureka', '--table', 'MTEB', '--width', '0']))
        .stdout;
    const [text, importedText] = [await table(home), await table(fresh)];
    expect(importedText).toContain('imported (MTEB file)');
    const cells = (tableText: string) =>
      tableText
        .split('\n')
        .filter((line) => line.includes('MedEureka'))
        .map((line) => line.split(/\s{2,}/).filter((cell, index) => index !== 1 && cell !== ''));
    expect(cells(importedText)).toEqual(cells(text));
    expect(cells(text)).toHaveLength(1 + 10); // the title, then two models × five datasets
    // what was imported is not exported again as if medbench had run it
    const again = await runCli(['--home', fresh, 'export', 'logs', '--format', 'mteb', '--out', out]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('no MedEureka run matches');
  });

  it('two runs under one label are told apart by their ids, as in the other suites', async () => {
    const shared = temporaryHome();
    try {
      for (const model of ['bm25', 'lsa']) {
        const result = await runCli([...twoTasks(shared), '--model', model, '--label', 'retriever']);
        expect(result.code, result.stderr).toBe(0);
      }
      const report = JSON.parse(
        (await runCli(['--home', shared, 'report', '--suite', 'medeureka', '--json'])).stdout,
      );
      const labels = report.runs.map((run: { runId: string; label: string }) => run.label);
      expect(labels).toEqual(
        report.runs.map((run: { runId: string }) => `retriever #${run.runId.slice(0, 6)}`),
      );
      const text = (await runCli(['--home', shared, 'report', '--suite', 'medeureka'])).stdout;
      for (const label of labels) expect(text).toContain(`\n${label}  `);
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });

  it('a run cut short resumes: only the tasks without stored results are ranked again', async () => {
    const data = join(ROOT, 'samples', 'medeureka');
    const resumeHome = join(scratch, 'resume');
    const first = await runCli(['--home', resumeHome, 'run', 'medeureka', '--data', data, '--model', 'bm25']);
    expect(first.code).toBe(0);
    const before = JSON.parse(
      (await runCli(['--home', resumeHome, 'report', '--suite', 'medeureka', '--json'])).stdout,
    );
    // What a kill -9 during one task leaves: every other task committed.
    const database = new Database(join(resumeHome, 'medbench.sqlite'));
    const last = database.prepare('SELECT MAX(task) AS task FROM results').get() as {
      task: string;
    };
    const removed = database.prepare('DELETE FROM results WHERE task = ?').run(last.task).changes;
    const kept = (database.prepare('SELECT COUNT(*) AS n FROM results').get() as { n: number }).n;
    database.close();
    expect(removed).toBeGreaterThan(0);
    const again = await runCli(['--home', resumeHome, 'run', 'medeureka', '--data', data, '--model', 'bm25']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`Ranked ${removed} queries`);
    expect(again.stderr).toContain(`${kept} ranked before`);
    const after = JSON.parse(
      (await runCli(['--home', resumeHome, 'report', '--suite', 'medeureka', '--json'])).stdout,
    );
    expect(after.runs.map((run: { datasets: unknown }) => run.datasets)).toEqual(
      before.runs.map((run: { datasets: unknown }) => run.datasets),
    );
  });

  it('names a target missing from its corpus, and a task without a corpus, storing nothing', async () => {
    const before = storeSnapshot(home);
    writeFileSync(join(scratch, 'corpus.json'), JSON.stringify({ AskAPatient_en: ['Headache', 'Nausea'] }));
    writeFileSync(
      join(scratch, 'queries.jsonl'),
      '{"task": "AskAPatient_en", "query": "sore head", "targets": ["Headache"]}\n{"task": "AskAPatient_en", "query": "itchy", "targets": ["Pruritus"]}\n',
    );
    let result = await runCli(['--home', home, 'run', 'medeureka', '--data', scratch, '--model', 'bm25']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'queries.jsonl:2: the target "Pruritus" is not in the AskAPatient_en corpus',
    );
    writeFileSync(
      join(scratch, 'queries.jsonl'),
      '{"task": "Dialogue_en", "query": "q", "targets": ["t"]}\n',
    );
    result = await runCli(['--home', home, 'run', 'medeureka', '--data', scratch, '--model', 'bm25']);
    expect(result.stderr).toContain('task Dialogue_en has no corpus');
    expect(storeSnapshot(home)).toEqual(before);
  });

  it('runs an OpenAI-compatible embedding endpoint with the e5 instruction, caches every vector, and records the instruction', async () => {
    const server = await startEmbeddingTestServer({ dimensions: 32, maxBatch: 8 });
    const denseHome = temporaryHome();
    try {
      const args = twoTasks(denseHome);
      const model = `openai-compatible:bge-m3@${server.url}/v1`;
      const denseArgs = [
        ...args,
        '--model',
        model,
        '--instruction',
        'e5',
        '--batch-size',
        '8',
        '--label',
        'bge-m3',
      ];
      const first = await runCli(denseArgs);
      expect(first.stderr).not.toMatch(/error \[/);
      expect(first.code).toBe(0);
      const inputs = server.requests.flatMap((request) => request.body.input ?? []);
      expect(server.requests.every((request) => (request.body.input ?? []).length <= 8)).toBe(true);
      expect(inputs).toContain(
        'Instruct: Given a social media phrase, retrieve relevant medical terminology\nQuery: terrible headaches all day',
      );
      expect(
        inputs.filter((input) => input.startsWith('Instruct: Given a query for the experts')).length,
      ).toBeGreaterThan(0);
      expect(inputs.filter((input) => input.startsWith('Instruct:')).length).toBeLessThan(inputs.length);
      const requestsAfterFirst = server.requests.length;
      const second = await runCli(denseArgs);
      expect(second.code).toBe(0);
      expect(second.stderr).toMatch(/embedded 0 texts, \d+ from the cache/);
      expect(server.requests.length).toBe(requestsAfterFirst);
      const report = JSON.parse(
        (await runCli(['--home', denseHome, 'report', '--suite', 'medeureka', '--json'])).stdout,
      );
      expect(report.runs).toHaveLength(1);
      expect(report.runs[0].model).toMatchObject({
        kind: 'dense',
        modelId: 'bge-m3',
        instructionTemplate: 'e5',
      });
      expect(Object.keys(report.runs[0].datasets).sort()).toEqual(['Literature II', 'Term III']);

      const broken = await startEmbeddingTestServer({ dimensions: 32 });
      broken.script.push({ kind: 'answer' }, { kind: 'wrong-dimension' });
      const before = storeSnapshot(denseHome);
      const failed = await runCli([
        ...args,
        '--model',
        `openai-compatible:other@${broken.url}/v1`,
        '--batch-size',
        '4',
        '--concurrency',
        '1',
        '--max-retries',
        '0',
      ]);
      await broken.close();
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain('returned a vector of 33 dimensions where 32 were expected');
      expect(storeSnapshot(denseHome)).toEqual(before);
    } finally {
      await server.close();
      rmSync(denseHome, { recursive: true, force: true });
    }
  });

  it('--dry-run tells what would be ranked and sent, sending and storing nothing; --max-cost is never ignored', async () => {
    const server = await startEmbeddingTestServer({ dimensions: 16 });
    const dryHome = temporaryHome();
    try {
      const run = twoTasks(dryHome);
      const args = [...run, '--model', `openai-compatible:bge-m3@${server.url}/v1`];
      const dry = await runCli([...args, '--dry-run']);
      expect(dry.stderr).not.toMatch(/error \[/);
      expect(dry.code).toBe(0);
      expect(server.requests).toHaveLength(0);
      expect(storeSnapshot(dryHome)).toBe('absent');
      // AskAPatient_en: 4 queries, 10 corpus texts; Study_en (read as Literature_en): 2 and 5.
      expect(dry.stdout).toContain('Dry run: nothing was sent or stored.');
      expect(dry.stdout).toMatch(/^AskAPatient_en\t4\t0\t10$/m);
      expect(dry.stdout).toMatch(/^all\t6\t0\t15$/m);
      expect(dry.stdout).toContain(
        `bge-m3 at ${server.url}/v1 would be sent 21 texts (15 corpus texts, 6 queries;`,
      );
      expect((await runCli(args)).code).toBe(0);
      const sent = server.requests.length;
      expect(sent).toBeGreaterThan(0);
      // A limited run is a run of its own: nothing of it stored, every text it needs in the cache.
      const limited = await runCli([...args, '--limit', '1', '--dry-run']);
      expect(limited.stdout).toMatch(/^all\t2\t0\t15$/m);
      expect(limited.stdout).toContain(
        'would be sent 0 texts (0 corpus texts, 0 queries; 0 characters); 17 more',
      );
      expect(limited.stdout).toContain('The run is limited to the first 1 samples of each task');
      const stored = await runCli([...args, '--dry-run']);
      expect(stored.stdout).toMatch(/^all\t6\t6\t15$/m);
      expect(server.requests.length).toBe(sent);

      // No prices are known for an embedding model: a cap is refused, not ignored; nothing is sent or stored.
      const before = storeSnapshot(dryHome);
      const capped = await runCli([...args, '--max-cost', '1']);
      expect(capped.code).toBe(2);
      expect(capped.stderr).toContain(
        'error [USAGE] --max-cost: medbench knows no prices for the embedding model bge-m3 (openai-compatible)',
      );
      expect(storeSnapshot(dryHome)).toEqual(before);
      expect(server.requests.length).toBe(sent);
      // BM25 runs in this process: the cap is said to cost nothing.
      const sparse = await runCli([...run, '--model', 'bm25', '--max-cost', '1', '--dry-run']);
      expect(sparse.code).toBe(0);
      expect(sparse.stderr).toContain('--max-cost 1: bm25 runs in this process and sends nothing');
      expect(sparse.stdout).toContain('bm25 ranks in this process: nothing is sent to a model');
    } finally {
      await server.close();
      rmSync(dryHome, { recursive: true, force: true });
    }
  });

  it('runs a local ONNX model folder and reads the save_to_disk release', async () => {
    const folder = writeTinyOnnxModel();
    const data = join(ROOT, 'test', 'fixtures', 'medeureka', 'save-to-disk');
    const run = ['--home', home, 'run', 'medeureka', '--data', data, '--model'];
    const result = await runCli([...run, `onnx:${folder}`, '--pooling', 'mean']);
    expect(result.stderr).not.toMatch(/error \[/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Literature II');
    const missing = await runCli([...run, `onnx:${writeTinyOnnxModel({ withTokenizer: false })}`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('has no tokenizer.json');
  });

  it('exports mined training triples in both sentence-transformers layouts', async () => {
    const data = join(ROOT, 'samples', 'medeureka');
    const out = join(scratch, 'triples.jsonl');
    const common = [
      '--home',
      home,
      'export',
      'medeureka-triples',
      '--data',
      data,
      '--model',
      'lsa',
      '--out',
      out,
    ];
    const triplet = await runCli([...common, '--threshold', '0.1', '--tasks', 'KB_para_zh']);
    expect(triplet.code).toBe(0);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(['anchor', 'positive', 'negative']);
      expect(row.negative).not.toBe(row.positive);
    }
    const tuple = await runCli([...common, '--threshold', '-1', '--negatives', '2', '--format', 'n-tuple']);
    expect(tuple.code).toBe(0);
    const tuples = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(tuples.every((row) => Object.keys(row).join() === 'anchor,positive,negative_1,negative_2')).toBe(
      true,
    );
  });
});
