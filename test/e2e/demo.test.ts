import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, temporaryHome } from './cli.js';

const home = temporaryHome();
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('medbench demo (built CLI)', () => {
  it('builds, runs the baseline, prints Table A2/3-style results and writes the HTML report', async () => {
    const result = await runCli(['--home', home, 'demo']);
    expect(result.stderr).not.toMatch(/error \[/);
    expect(result.code).toBe(0);
    for (const heading of [
      'En.NIAH — ESM',
      'Zh.NIAH — ESM',
      'En.NIAH — SSM',
      'Zh.NIAH — SSM',
      'Counting — ESM',
      'Counting — SSM',
      'Medical tasks — ESM (Table 2)',
      'Medical tasks — SSM (Table A4)',
    ]) {
      expect(result.stdout).toContain(heading);
    }
    expect(result.stdout).toMatch(/baseline:extractive\s+0%/);
    expect(result.stdout).toContain('1.5k');
    const html = join(home, 'reports', 'medodyssey-demo.html');
    expect(existsSync(html)).toBe(true);
    const page = readFileSync(html, 'utf8');
    expect(page.match(/<svg /g)?.length).toBeGreaterThanOrEqual(8);
    expect(page).toContain('baseline:extractive — En.NIAH ESM');
    expect(result.stdout).toContain('MedEureka sample: BM25 and LSA');
    expect(result.stdout).toMatch(
      /MedEureka — MRR@10 \(%\)\nModel +Literature II +KB I +Term I +Term III +Dialogue II +Avg\./,
    );
    expect(result.stdout).toMatch(/^bm25 /m);
    expect(result.stdout).toMatch(/^lsa /m);
    expect(readFileSync(join(home, 'reports', 'medeureka-demo.html'), 'utf8')).toContain(
      'Exact HR@n, Chinese datasets',
    );
  });

  it('a second demo costs nothing: every sample is already done', async () => {
    const result = await runCli(['--home', home, 'demo']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('0 new, 294 from before');
  });

  it('report --json gives correct and counted numbers per cell', async () => {
    const result = await runCli(['--home', home, 'report', '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    const [run] = report.runs;
    expect(run.label).toBe('baseline:extractive');
    // 4 needles × 5 depths × 3 levels per language; the extractive baseline never matches exactly.
    expect(run.niah.en.esm.all).toEqual({ correct: 0, counted: 60 });
    expect(run.niah.zh.ssm.cells['50']['1000']).toEqual({ correct: 4, counted: 4 });
    // Every medical dataset of Table 2 is built from the sample sources and scored.
    expect(Object.keys(run.medical).sort()).toEqual([
      'case-zh',
      'kg-en',
      'kg-zh',
      'table-zh',
      'term-en',
      'term-zh',
    ]);
    // It reads the counting sentences: right on repeat/increase/shuffle, wrong on correction.
    expect(run.counting.en.esm.byType).toEqual({
      repeat: { correct: 3, counted: 3 },
      increase: { correct: 3, counted: 3 },
      shuffle: { correct: 3, counted: 3 },
      correction: { correct: 0, counted: 3 },
    });
  });
});
