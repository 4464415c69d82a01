import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, temporaryHome } from './cli.js';
import { storeSnapshot } from './store-snapshot.js';

const home = temporaryHome();
const scratch = mkdtempSync(join(tmpdir(), 'medbench-medeureka-'));
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

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
});
