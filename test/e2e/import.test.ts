import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, temporaryHome } from './cli.js';
import { storeDigest, storeSnapshot } from './store-snapshot.js';

const home = temporaryHome();
const fixture = join(ROOT, 'test', 'e2e', 'fixtures', 'published-release');
afterAll(() => rmSync(home, { recursive: true, force: true }));

// Expected values worked out by hand from the fixture lines (see its README).
describe('medbench import medodyssey-outputs (built CLI)', () => {
  it('imports and re-scores the published outputs, idempotently', async () => {
    const first = await runCli(['--home', home, 'import', 'medodyssey-outputs', fixture]);
    // Only the progress line (not a terminal: its first state and the storing step).
    expect(first.stderr.replace(/^import medodyssey-outputs: .*\n/gm, '')).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      'task_result/en_kg_gpt-4o_v1.jsonl: 3 outputs (1 ok, 1 bad_format, 1 too_long); 97 of the 100 samples have no output',
    );
    expect(first.stdout).toMatch(
      /Read 20 published outputs from 5 files \(2 models\) in [\d.]+ s: 20 stored\./,
    );
    expect(first.stdout).toContain('agrees with every published pred_answer');
    const before = storeSnapshot(home);
    const again = await runCli(['--home', home, 'import', 'medodyssey-outputs', fixture]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/0 stored, 2 models already imported and unchanged\./);
    expect(storeSnapshot(home)).toEqual(before);
    const report = JSON.parse((await runCli(['--home', home, 'report', '--json'])).stdout);
    const byLabel = Object.fromEntries(report.runs.map((run: { label: string }) => [run.label, run]));
    const gpt4o = byLabel['GPT-4o (published)'];
    expect(gpt4o.scoringMode).toBe('compat');
    expect(gpt4o.scoring).toBe('compat');
    expect(gpt4o.source).toBe('published');
    expect(gpt4o.modelId).toBe('gpt-4o');
    const esm = gpt4o.niah.en.esm;
    // 200k exceeds GPT-4o's 128k window: "—" and out of every total.
    expect(esm.cells['0']).toMatchObject({
      '4000': { correct: 2, counted: 2 },
      '128000': { correct: 0, counted: 2 },
      '200000': null,
    });
    expect(esm.byLevel).toMatchObject({
      '4000': { correct: 2, counted: 4 },
      '128000': { correct: 0, counted: 2 },
      '200000': null,
    });
    expect(esm.all).toMatchObject({ correct: 2, counted: 6 });
    expect(esm.statuses).toEqual({ ok: 4, bad_format: 1, too_long: 3, error: 0 });
    expect(gpt4o.niah.en.ssm.all).toMatchObject({ correct: 3, counted: 6 });
    expect(gpt4o.counting.en.esm.byType).toMatchObject({
      repeat: { correct: 1, counted: 1 },
      increase: { correct: 0, counted: 1 },
      shuffle: { correct: 0, counted: 1 },
      correction: { correct: 0, counted: 1 },
    });
    expect(gpt4o.counting.en.ssm.all).toMatchObject({ correct: 2, counted: 4 });
    // KG: tp 1, fp 1, fn 1 + 1 + 2 (the too_long sample's two gold triplets are false negatives)
    // → P 50, R 20, F1 2·0.5·0.2/0.7 = 28.57. SSM: sample 1 lacks "a|rel|c"; sample 2 (no JSON)
    // holds "x|is|y"; sample 3 was never sent → 1/3.
    expect(gpt4o.medical['kg-en'].esm).toMatchObject({
      precision: 50,
      recall: 20,
      f1: expect.closeTo(200 / 7, 10),
      tp: 1,
      fp: 1,
      fn: 4,
      counted: 3,
    });
    expect(gpt4o.medical['kg-en'].ssm).toMatchObject({ correct: 1, counted: 3 });
    // Case: "14" matches the alternative from answer_correct.json; ["少言", "焦虑一周"] joined with "，".
    // SSM: "14" occurs in the first raw output, "少言，焦虑一周" not in the second → 1/2.
    // The third line's true_answer is itself a list of alternatives ([["3"], ["3次"]]): "3次" matches.
    expect(gpt4o.medical['case-zh'].esm).toMatchObject({ accuracy: 100, correct: 3, counted: 3 });
    expect(gpt4o.medical['case-zh'].ssm).toMatchObject({ correct: 2, counted: 3 });
    // Figure 5: KG F1 per level — 4k holds sample 1 (tp 1, fp 1, fn 1 → F1 50), 8k sample 2 (F1 0).
    expect(gpt4o.medicalByLevel['kg-en']).toEqual({ '4000': 50, '8000': 0, '128000': 0 });
    // Figure A4: SSM accuracy per level — 4k: sample 1 lacks "a|rel|c" (0); 8k: sample 2 holds "x|is|y" (100).
    expect(gpt4o.medicalByLevelSsm['kg-en']).toEqual({ '4000': 0, '8000': 100, '128000': 0 });
    // Figure 2 axes: main ESM scores ×100, null for datasets not run.
    expect(gpt4o.overview['En.NIAH']).toBeCloseTo(100 / 3, 10);
    expect(gpt4o.overview).toMatchObject({
      'En.KG': expect.closeTo(200 / 7, 10),
      'Zh.Case': 100,
      'Zh.Table': null,
    });
    const haiku = byLabel['Claude 3 Haiku (published)'];
    expect(haiku.niah.zh.esm.all).toMatchObject({ correct: 1, counted: 2 });
    expect(haiku.niah.zh.ssm.all).toMatchObject({ correct: 2, counted: 2 });
  });

  it('prints the Table A2 layout with — for levels beyond the window', async () => {
    const result = await runCli(['--home', home, 'report', '--metric', 'esm']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/GPT-4o \(published\)\s+0%\s+2\s+0\s+—\s+2\/4/);
    expect(result.stdout).toContain('Scored in compat mode');
    expect(result.stdout).toMatch(
      /Medical tasks — ESM \(Table 2\)[\s\S]*GPT-4o \(published\)\s+50\.00\s+20\.00\s+28\.57/,
    );
  });

  it('a malformed line is an error naming file, line and field, and the store is left as it was', async () => {
    const broken = join(home, 'broken-release');
    cpSync(fixture, broken, { recursive: true });
    const path = join(broken, 'evaluation_result', 'task_result', 'zh_medcase_gpt-4o_v1.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"true_answer": ["少言，焦虑一周"]', '"true_answer": 5');
    writeFileSync(path, lines.join('\n'));
    // The model stored first changed too: its run would be replaced, but the bad line (read
    // before anything is written) undoes everything.
    const claude = join(broken, 'evaluation_result', 'niah_result', 'zh_claude-3-haiku-20240307_v1.jsonl');
    writeFileSync(
      claude,
      readFileSync(claude, 'utf8').replace('"pred_answer": "林 晚舟"', '"pred_answer": "林晚舟"'),
    );
    const fresh = temporaryHome();
    try {
      // Into a new home: no store is left behind.
      const first = await runCli(['--home', fresh, 'import', 'medodyssey-outputs', broken]);
      expect(first.code).toBe(1);
      expect(readdirSync(fresh)).toEqual([]);
      expect((await runCli(['--home', fresh, 'import', 'medodyssey-outputs', fixture])).code).toBe(0);
      const before = storeSnapshot(fresh);
      const digest = storeDigest(fresh);
      const result = await runCli(['--home', fresh, 'import', 'medodyssey-outputs', broken]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(
        `${path}:2: field "true_answer": expected a string, a list of strings, or a list of alternative lists`,
      );
      expect(result.stderr).toContain('found the number 5.');
      expect(result.stderr).toContain('Correct or delete that line');
      expect(storeSnapshot(fresh)).toEqual(before);
      expect(storeDigest(fresh)).toBe(digest);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('a folder without outputs is a clear error', async () => {
    const result = await runCli(['--home', home, 'import', 'medodyssey-outputs', join(ROOT, 'samples')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error [DATA_NOT_FOUND] No published outputs in');
  });
});
