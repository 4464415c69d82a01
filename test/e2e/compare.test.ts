import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareDocumentSchema } from '../../src/compose/compare-document.js';
import type { TaskComparison } from '../../src/view/shared/compare-runs.js';
import { writeCompareRuns } from '../support/compare-runs.js';
import { jsonSchemaErrors } from '../support/json-schema-check.js';
import { ROOT, runCli, temporaryHome } from './cli.js';

/** `medbench compare` with the built CLI on runs whose numbers are checked by hand (test/support/compare-runs.ts). */
const home = temporaryHome();
const schemaFile = JSON.parse(readFileSync(join(ROOT, 'schemas', 'compare.schema.json'), 'utf8'));

type Task = TaskComparison;

beforeAll(() => writeCompareRuns(home));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('medbench compare (built CLI)', () => {
  it('--json: per task the hand-checked scores, McNemar, Holm and the unpaired sample; the shipped schema takes it', async () => {
    const result = await runCli(['--home', home, 'compare', 'model-a', 'model-b', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(jsonSchemaErrors(schemaFile, document)).toEqual([]);
    expect(compareDocumentSchema.safeParse(document).success).toBe(true);
    const tasks = Object.fromEntries((document.tasks as Task[]).map((task) => [task.task, task]));
    expect(Object.keys(tasks)).toEqual(['En.NIAH', 'En.Term', 'Zh.Case']);
    expect(tasks['En.Term']).toMatchObject({ n: 10, units: 10, a: 0.3, b: 0.8, test: 'McNemar (exact)' });
    expect(tasks['En.Term']!.onlyA).toBe(1);
    expect(tasks['En.Term']!.onlyB).toBe(6);
    expect(tasks['En.Term']!.p).toBeCloseTo(0.125, 12);
    expect(tasks['En.Term']!.pHolm).toBeCloseTo(0.25, 12);
    expect(tasks['En.Term']!.difference).toBeCloseTo(0.5, 12);
    expect(tasks['En.Term']!.lower).toBeLessThan(0.5);
    expect(tasks['En.Term']!.upper).toBeGreaterThan(0.5);
    expect(tasks['Zh.Case']).toMatchObject({ n: 9, a: 4 / 9, b: 4 / 9, onlyA: 0, onlyB: 0, p: 1, pHolm: 1 });
    expect(tasks['Zh.Case']!.onlyInA).toEqual({ count: 1, ids: ['case-zh-9'] });
    expect(tasks['En.NIAH']).toMatchObject({ n: 6, units: 2, test: 'paired bootstrap', onlyA: 0, onlyB: 2 });
    expect(document.overall.tasks).toBe(3);
    expect(document.overall.difference).toBeCloseTo((0.5 + 0 + 2 / 6) / 3, 12);
    expect(document).toMatchObject({ suite: 'medodyssey', variant: 'esm', resamples: 1000, level: 0.95 });
  });

  it('text: the table with the overall row, and the sample only A holds named', async () => {
    const result = await runCli(['--home', home, 'compare', 'model-a', 'model-b']);
    expect(result.code).toBe(0);
    const term = result.stdout.split('\n').find((line) => line.startsWith('En.Term'))!;
    expect(term.split(/\s{2,}/)).toEqual([
      'En.Term',
      'ESM accuracy',
      '10',
      '30.0',
      '80.0',
      expect.stringMatching(/^\+50\.0 \[\+\d+\.\d, \+\d+\.\d\]$/),
      'McNemar (1/6)',
      '0.125',
      '0.250',
      expect.stringMatching(/^\d+\.\d$/),
    ]);
    expect(result.stdout).toMatch(/^Overall\s+mean of 3 tasks/m);
    expect(result.stdout).toContain('Zh.Case: 1 samples only in A (model-a), not paired: case-zh-9');
  });

  it('the same seed gives the same intervals; another seed other ones', async () => {
    const args = ['--home', home, 'compare', 'model-a', 'model-b', '--json'];
    const [first, again, other] = await Promise.all([
      runCli(args),
      runCli(args),
      runCli([...args, '--seed', '7', '--bootstrap-resamples', '500']),
    ]);
    expect(again.stdout).toBe(first.stdout);
    const bounds = (text: string) => JSON.parse(text).tasks.map((task: Task) => [task.lower, task.upper]);
    expect(bounds(other.stdout)).not.toEqual(bounds(first.stdout));
    expect(JSON.parse(other.stdout)).toMatchObject({ seed: 7, resamples: 500 });
  });

  it('runs named as report names them: a label shared by two runs asks for label#id, which then works', async () => {
    const shared = await runCli(['--home', home, 'compare', 'twin', 'model-a']);
    expect(shared.code).toBe(2);
    expect(shared.stderr).toContain('[USAGE] "twin" names 2 runs; name one as label#id.');
    expect(shared.stderr).toContain('twin#dddd00');
    const named = await runCli(['--home', home, 'compare', 'twin#dddd00', 'twin #eeee', '--json']);
    expect(named.code).toBe(0);
    expect(JSON.parse(named.stdout).b.runId).toBe('eeee000000000004');
  });

  it.each([
    [['nobody', 'model-b'], 1, '[DATA_NOT_FOUND] No run named "nobody"'],
    [
      ['model-a', 'clue-run'],
      2,
      'is a medodyssey run and clue-run#cccc00 a clue run: compare takes two runs of one suite',
    ],
    [['model-a', 'other-data'], 2, 'share no sample both count: there is nothing to pair'],
    [['model-a', 'aaaa0000'], 2, 'RUN_A and RUN_B are the same run'],
    [
      ['model-a', 'model-b', '--metric', 'f1'],
      2,
      '--metric f1: MedOdyssey runs are compared under esm or ssm',
    ],
  ])('compare %j: a clear error, exit %i', async (args, code, message) => {
    const result = await runCli(['--home', home, 'compare', ...args]);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
  });

  it('report: the leaderboard with rank intervals (text and HTML), ties told as ties', async () => {
    // Averages of En.NIAH, En.Term and Zh.Case: model-b (5/6 + 8/10 + 4/9)/3 ≈ 69.3; twin #eeee00 and
    // other-data (5/6 + 8/10 + 4/10)/3 ≈ 67.8; model-a and twin #dddd00 (3/6 + 3/10 + 4/10)/3 = 40.0,
    // alike on every sample: tied on every resample, p = 1.
    const result = await runCli(['--home', home, 'report', '--table', 'Leaderboard — esm', '--width', '0']);
    expect(result.code).toBe(0);
    const rows = result.stdout
      .split('\n')
      .slice(3, 8)
      .map((line) => line.split(/\s{2,}/));
    expect(rows.map((row) => [row[0], row[1], row[3]])).toEqual([
      ['model-b', '1', '69.3'],
      ['other-data', '2.5', '67.8'],
      ['twin #eeee00', '2.5', '67.8'],
      ['model-a', '4.5', '40.0'],
      ['twin #dddd00', '4.5', '40.0'],
    ]);
    expect(rows[3]![4]).toBe('≈ next (p = 1.000)');
    expect(rows[4]![4]).toBeUndefined();
    expect(result.stdout).toContain('paired bootstrap of the two averages');
    // The report's bootstrap settings are the rank intervals' too; --no-intervals leaves them out.
    const seeded = await runCli(['--home', home, 'report', '--bootstrap-resamples', '200', '--seed', '3']);
    expect(seeded.stdout).toContain('over 200 bootstrap resamples (seed 3)');
    const plain = await runCli(['--home', home, 'report', '--no-intervals']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('Leaderboard — ');
    const html = join(home, 'report.html');
    expect((await runCli(['--home', home, 'report', '--html', html])).code).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<section id="rank-intervals">');
    expect(page).toContain('<td>model-a</td><td>4.5</td>');
  });
});
