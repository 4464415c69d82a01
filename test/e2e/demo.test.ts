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
    expect(run.niah.en.esm.all).toMatchObject({ correct: 0, counted: 60 });
    expect(run.niah.zh.ssm.cells['50']['1000']).toMatchObject({ correct: 4, counted: 4 });
    // Its interval clusters by needle: 60 samples of 4 needles, all wrong; Wilson at the 4 units,
    // z²/(4 + z²) = 0.4899 (at 60 independent samples it would be 0.0602).
    expect(run.niah.en.esm.all.interval).toMatchObject({ lower: 0, method: 'wilson', units: 4, level: 0.95 });
    expect(run.niah.en.esm.all.interval.upper).toBeCloseTo(0.48989, 4);
    // A cell holds one sample per needle: Wilson over its 4 independent samples.
    expect(run.niah.zh.ssm.cells['50']['1000'].interval).toMatchObject({
      method: 'wilson',
      units: 4,
      upper: 1,
    });
    // Micro F1 (KG under ESM) by the bootstrap: B and seed are reported, the bounds hold the score.
    const kg = run.medical['kg-zh'].esm;
    expect(kg.intervals.f1).toMatchObject({ method: 'bootstrap', resamples: 1000, seed: 20260527 });
    expect(kg.intervals.f1.lower).toBeLessThanOrEqual(kg.f1);
    expect(kg.intervals.f1.upper).toBeGreaterThanOrEqual(kg.f1);
    expect(Object.keys(run.overviewIntervals)).toEqual(Object.keys(run.overview));
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
    expect(run.counting.en.esm.byType).toMatchObject({
      repeat: { correct: 3, counted: 3 },
      increase: { correct: 3, counted: 3 },
      shuffle: { correct: 3, counted: 3 },
      correction: { correct: 0, counted: 3 },
    });
  });
});
