import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, temporaryHome } from './cli.js';

// The demo's runs (MedOdyssey's extractive baseline, MedEureka's BM25 and LSA) reported with and
// without their 95% intervals, and with the bootstrap's B and seed set.
const home = temporaryHome();
beforeAll(async () => {
  const demo = await runCli(['--home', home, 'demo']);
  expect(demo.code, demo.stderr).toBe(0);
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

const report = async (...args: string[]) => {
  const result = await runCli(['--home', home, 'report', ...args]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
};

describe('report: every score with its 95% interval (built CLI)', () => {
  it('--bootstrap-resamples and --seed set the bootstrap, and the same seed gives the same intervals', async () => {
    const args = ['--json', '--bootstrap-resamples', '200', '--seed', '5'];
    const first = JSON.parse(await report(...args));
    const kg = first.runs[0].medical['kg-zh'].esm;
    expect(kg.intervals.f1).toMatchObject({ method: 'bootstrap', resamples: 200, seed: 5, level: 0.95 });
    const again = JSON.parse(await report(...args));
    expect(again.runs[0].medical).toEqual(first.runs[0].medical);
    const eureka = JSON.parse(await report('--suite', 'medeureka', ...args));
    expect(eureka.runs[0].intervals.average['mrr@10']).toMatchObject({
      method: 'bootstrap',
      resamples: 200,
      seed: 5,
    });
    // Exact HR@10 of a dataset is a proportion of independent queries: Wilson, no B, no seed.
    expect(eureka.runs[0].intervals.datasets['Term I']['hr@10']).toMatchObject({
      method: 'wilson',
      resamples: null,
      seed: null,
    });
  });

  it('sit under every score cell (text: a second aligned line; HTML: a second line of the cell), the rest as --no-intervals prints it', async () => {
    // An interval line: only `[lower–upper]` cells; spacing aside, the other lines are the plain report's.
    const intervalLine = /^\s*(?:\[[^\]]*\]\s*)+$/;
    const squeeze = (text: string) =>
      text
        .split('\n')
        .map((line) => line.replace(/-{2,}/g, '--').replace(/ {2,}/g, '  ').trimEnd())
        .join('\n');
    for (const suite of ['medodyssey', 'medeureka']) {
      const withIntervals = await report('--suite', suite, '--width', '0');
      const without = await report('--suite', suite, '--width', '0', '--no-intervals');
      // MedOdyssey's effective lengths are printed either way, their [lower, upper] with intervals only.
      const effective = (text: string) =>
        text.split('\n\n').find((table) => table.startsWith('Effective length'));
      if (suite === 'medodyssey') {
        expect(effective(withIntervals)).toContain(
          '95% percentile bootstrap interval over NIAH needles or samples',
        );
        expect(effective(without)).not.toMatch(/\[|bootstrap/);
      }
      const tables = withIntervals
        .trimEnd()
        .split('\n\n')
        .map((table) => (table === effective(withIntervals) ? effective(without)! : table));
      const ranks = tables.filter((table) => table.startsWith('Leaderboard — '));
      // MedEureka's two demo runs: a leaderboard with rank intervals per scored metric; one MedOdyssey run: none.
      expect(ranks, suite).toHaveLength(suite === 'medeureka' ? 2 : 0);
      const added = tables.filter((table) => table.includes('95% interval') || ranks.includes(table));
      expect(added.length, suite).toBe(1 + ranks.length);
      const kept = tables.filter((table) => !added.includes(table)).join('\n\n');
      const lines = kept.split('\n');
      expect(lines.filter((line) => intervalLine.test(line)).length, suite).toBeGreaterThanOrEqual(10);
      expect(squeeze(lines.filter((line) => !intervalLine.test(line)).join('\n')), suite).toBe(
        squeeze(without.trimEnd()),
      );
      expect(without).not.toContain('95% interval');
      expect(without).not.toMatch(/\[\d+\.\d–/);
    }
    const text = await report('--width', '0', '--table', 'Figure 5');
    // Zh.Term at 1k: 7 of 10 right, Wilson [39.7, 89.2]; the NIAH error analysis by needle type, by needle.
    expect(text).toMatch(/Zh\.Term +70\.00 +70\.00 +70\.00\n +\[39\.7–89\.2\]/);
    const errors = await report('--width', '0', '--table', 'NIAH errors — ESM');
    expect(errors).toMatch(/60\/60 +30\/30 +30\/30[^\n]*\n +\[51\.0–100\.0%\] +\[34\.2–100\.0%\]/);
    const json = await report('--json', '--no-intervals');
    expect(json).not.toMatch(/"intervals?"|overviewIntervals|Intervals"/);
  });

  it('--json and --html carry the intervals the tables had none of: Figures 5/A4, the NIAH error analysis', async () => {
    const run = JSON.parse(await report('--json')).runs[0];
    expect(run.medicalByLevelIntervals['term-zh']['1000']).toMatchObject({
      method: 'wilson',
      lower: expect.closeTo(39.68, 1),
      upper: expect.closeTo(89.22, 1),
      units: 10,
    });
    expect(run.niahErrorIntervals.en.esm.byNeedleType.med).toMatchObject({ method: 'wilson', units: 2 });
    expect(run.medicalByLevelSsmIntervals['case-zh']).toBeDefined();
    const page = join(home, 'intervals.html');
    await report('--html', page);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('<td>70.00<br><span class="ci">[52.1–83.3]</span></td>');
  });

  it('--no-intervals with a bootstrap setting is a usage error', async () => {
    const result = await runCli(['--home', home, 'report', '--no-intervals', '--seed', '3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--seed sets the bootstrap of the intervals, which --no-intervals leaves out',
    );
    const zero = await runCli(['--home', home, 'report', '--bootstrap-resamples', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--bootstrap-resamples');
  });

  it('--effective-threshold and --effective-fraction set the effective-length rules; a share above 1 is a usage error', async () => {
    const json = JSON.parse(
      await report('--json', '--effective-threshold', '50', '--effective-fraction', '0.5', '--no-intervals'),
    );
    expect(json.effectiveLength).toEqual({ threshold: 50, fraction: 0.5 });
    const niah = json.runs[0].effectiveLengths.find((row: { dataset: string }) => row.dataset === 'Zh.NIAH');
    expect(niah.fixed.threshold).toBe(50);
    expect(niah.relative.threshold).toBeCloseTo(0.5 * niah.levels[0].score, 9);
    const bad = await runCli(['--home', home, 'report', '--effective-fraction', '2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--effective-fraction');
  });
});
