import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, temporaryHome } from './cli.js';

const home = temporaryHome();
const fixture = join(ROOT, 'test', 'e2e', 'fixtures', 'published-release');
afterAll(() => rmSync(home, { recursive: true, force: true }));

// Expected values worked out by hand from the fixture lines (see its README).
describe('medbench import medodyssey-outputs (built CLI)', () => {
  it('imports and re-scores the published outputs, idempotently', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await runCli(['--home', home, 'import', 'medodyssey-outputs', fixture]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Imported 18 published outputs from 5 files: 2 models');
      expect(result.stdout).toContain('agrees with every published pred_answer');
    }
    const report = JSON.parse((await runCli(['--home', home, 'report', '--json'])).stdout);
    const byLabel = Object.fromEntries(report.runs.map((run: { label: string }) => [run.label, run]));
    const gpt4o = byLabel['GPT-4o (published)'];
    expect(gpt4o.scoringMode).toBe('compat');
    expect(gpt4o.source).toBe('imported');
    const esm = gpt4o.niah.en.esm;
    // 200k exceeds GPT-4o's 128k window: "—" and out of every total.
    expect(esm.cells['0']).toEqual({
      '4000': { correct: 2, counted: 2 },
      '128000': { correct: 0, counted: 2 },
      '200000': null,
    });
    expect(esm.byLevel).toEqual({
      '4000': { correct: 2, counted: 4 },
      '128000': { correct: 0, counted: 2 },
      '200000': null,
    });
    expect(esm.all).toEqual({ correct: 2, counted: 6 });
    expect(esm.statuses).toEqual({ ok: 4, bad_format: 1, too_long: 3, error: 0 });
    expect(gpt4o.niah.en.ssm.all).toEqual({ correct: 3, counted: 6 });
    expect(gpt4o.counting.en.esm.byType).toEqual({
      repeat: { correct: 1, counted: 1 },
      increase: { correct: 0, counted: 1 },
      shuffle: { correct: 0, counted: 1 },
      correction: { correct: 0, counted: 1 },
    });
    expect(gpt4o.counting.en.ssm.all).toEqual({ correct: 2, counted: 4 });
    // KG: tp 1, fp 1, fn 2 → P 50, R 33.33, F1 40. SSM: sample 1 lacks "a|rel|c"; sample 2 (no JSON)
    // holds "x|is|y" → 1/2.
    expect(gpt4o.medical['kg-en'].esm).toMatchObject({
      precision: 50,
      f1: expect.closeTo(40, 10),
      counted: 2,
    });
    expect(gpt4o.medical['kg-en'].esm.recall).toBeCloseTo(100 / 3, 10);
    expect(gpt4o.medical['kg-en'].ssm.accuracy).toBe(50);
    // Case: "14" matches the alternative from answer_correct.json; ["少言", "焦虑一周"] joined with "，".
    // SSM: "14" occurs in the first raw output, "少言，焦虑一周" not in the second → 1/2.
    expect(gpt4o.medical['case-zh'].esm.accuracy).toBe(100);
    expect(gpt4o.medical['case-zh'].ssm.accuracy).toBe(50);
    // Figure 5: KG F1 per level — 4k holds sample 1 (tp 1, fp 1, fn 1 → F1 50), 8k sample 2 (F1 0).
    expect(gpt4o.medicalByLevel['kg-en']).toEqual({ '4000': 50, '8000': 0 });
    // Figure A4: SSM accuracy per level — 4k: sample 1 lacks "a|rel|c" (0); 8k: sample 2 holds "x|is|y" (100).
    expect(gpt4o.medicalByLevelSsm['kg-en']).toEqual({ '4000': 0, '8000': 100 });
    // Figure 2 axes: main ESM scores ×100, null for datasets not run.
    expect(gpt4o.overview['En.NIAH']).toBeCloseTo(100 / 3, 10);
    expect(gpt4o.overview).toMatchObject({
      'En.KG': expect.closeTo(40, 10),
      'Zh.Case': 100,
      'Zh.Table': null,
    });
    const haiku = byLabel['Claude 3 Haiku (published)'];
    expect(haiku.niah.zh.esm.all).toEqual({ correct: 1, counted: 2 });
    expect(haiku.niah.zh.ssm.all).toEqual({ correct: 2, counted: 2 });
  });

  it('prints the Table A2 layout with — for levels beyond the window', async () => {
    const result = await runCli(['--home', home, 'report', '--metric', 'esm']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/GPT-4o \(published\)\s+0%\s+2\s+0\s+—\s+2\/4/);
    expect(result.stdout).toContain('Scored in compat mode');
    expect(result.stdout).toMatch(
      /Medical tasks — ESM \(Table 2\)[\s\S]*GPT-4o \(published\)\s+50\.00\s+33\.33\s+40\.00/,
    );
  });

  it('a folder without outputs is a clear error', async () => {
    const result = await runCli(['--home', home, 'import', 'medodyssey-outputs', join(ROOT, 'samples')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error [DATA_NOT_FOUND] No published outputs in');
  });
});
