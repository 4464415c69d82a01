import { describe, expect, it } from 'vitest';
import { meanTask, type ScoredRow, type SuiteScoring } from '../core/scored-task.js';
import { type RankedRun, rankIntervals } from './rank-intervals.js';

/** One task, `correct` of `n` samples right (the first ones), each its own unit unless `needles` groups them. */
const scoring = (needles?: number): SuiteScoring => ({
  variants: ['acc'],
  tasks: () => [
    meanTask({
      key: 'task',
      statistic: 'accuracy',
      includes: (row) => row.task === 'task',
      unit: (row) => (needles ? String(Number(row.params.index) % needles) : row.sampleId),
      metric: 'acc',
      binary: true,
    }),
  ],
});

function run(label: string, correct: readonly number[]): RankedRun {
  const rows: ScoredRow[] = correct.map((value, index) => ({
    sampleId: `s${index}`,
    task: 'task',
    params: { index },
    scores: { acc: value },
  }));
  return { runId: label, label, rows, counted: () => true };
}
const ones = (n: number, right: number) => Array.from({ length: n }, (_, index) => (index < right ? 1 : 0));

describe('rankIntervals (bootstrap ranks over shared units)', () => {
  it('a constructed leaderboard: a beats b on one sample only, so they share ranks; c is apart', () => {
    // a is right wherever b is, and on sample 35 besides: a resample ties them when it misses
    // sample 35 ((39/40)^40 ≈ 36% of resamples), else a is first. So a ranks 1 or 1.5, b 2 or 1.5,
    // and their difference is ≥ 0 on every resample, 0 on ≈ 36%: p = 2 · 0.36 ≈ 0.73.
    const board = rankIntervals(scoring(), 'acc', [
      run('c', ones(40, 8)),
      run('b', ones(40, 35)),
      run('a', ones(40, 36)),
    ]);
    expect(board.entries.map((entry) => [entry.label, entry.rank, entry.lower, entry.upper])).toEqual([
      ['a', 1, 1, 1.5],
      ['b', 2, 1.5, 2],
      ['c', 3, 3, 3],
    ]);
    expect(board.entries.map((entry) => entry.average)).toEqual([0.9, 0.875, 0.2]);
    const [a, b, c] = board.entries;
    expect(a!.next!.different).toBe(false);
    expect(a!.next!.p).toBeGreaterThan(0.6);
    expect(a!.next!.p).toBeLessThan(0.85);
    expect(b!.next).toEqual({ p: 0, different: true });
    expect(c!.next).toBeNull();
    expect(board).toMatchObject({ tasks: ['task'], resamples: 1000, level: 0.95, unranked: [] });
  });

  it('two runs scoring alike on every sample tie on every resample: rank 1.5, interval [1.5, 1.5], p = 1', () => {
    const board = rankIntervals(scoring(), 'acc', [run('x', ones(30, 12)), run('y', ones(30, 12))]);
    expect(board.entries.map((entry) => [entry.rank, entry.lower, entry.upper])).toEqual([
      [1.5, 1.5, 1.5],
      [1.5, 1.5, 1.5],
    ]);
    expect(board.entries[0]!.next).toEqual({ p: 1, different: false });
  });

  it('resampling whole units (needles) widens what samples alone would call apart', () => {
    // Run p is right on needles 0–4 everywhere, q on needles 0–3 and 5: 10 needles × 8 samples each.
    const byNeedle = (right: (needle: number) => boolean) =>
      Array.from({ length: 80 }, (_, index) => (right(index % 10) ? 1 : 0));
    const runs = [
      run(
        'p',
        byNeedle((needle) => needle < 5),
      ),
      run(
        'q',
        byNeedle((needle) => needle < 4 || needle === 5),
      ),
    ];
    runs[1]!.rows.forEach((row, index) => {
      if (index % 10 === 6 && index < 40) row.scores.acc = 1;
    });
    const alone = rankIntervals(scoring(), 'acc', runs).entries[0]!;
    const clustered = rankIntervals(scoring(10), 'acc', runs).entries[0]!;
    expect(clustered.next!.p).toBeGreaterThan(alone.next!.p);
  });

  it('a run without a task the others have is not ranked', () => {
    const partial = run('partial', ones(10, 5));
    partial.rows = [];
    const board = rankIntervals(scoring(), 'acc', [
      run('full', ones(10, 5)),
      partial,
      run('other', ones(10, 2)),
    ]);
    expect(board.entries.map((entry) => entry.label)).toEqual(['full', 'other']);
    expect(board.unranked).toEqual(['partial']);
  });
});
