import { rmSync } from 'node:fs';
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

  it('are additions: the text with them is the text without them plus one table (and the leaderboards with rank intervals), every score as printed', async () => {
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
      expect(tables.filter((table) => !added.includes(table)).join('\n\n'), suite).toBe(without.trimEnd());
      expect(without).not.toContain('95% interval');
    }
    const json = await report('--json', '--no-intervals');
    expect(json).not.toMatch(/"intervals?"|overviewIntervals/);
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
