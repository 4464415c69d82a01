import { describe, expect, it } from 'vitest';
import type { ScoredRow } from '../../core/scored-task.js';
import { averageOfTasks, comparePairs, type PairedStatistic } from './paired-comparison.js';

const row = (sampleId: string, scores: Record<string, number>): ScoredRow => ({
  sampleId,
  task: 't',
  params: {},
  scores,
});
const mean: PairedStatistic = {
  key: 'mean',
  unit: (entry) => entry.sampleId,
  sums: (entry) => [entry.scores.x ?? 0, 1],
  score: (totals) => totals[0]! / totals[1]!,
};
const microF1: PairedStatistic = {
  key: 'f1',
  unit: (entry) => entry.sampleId,
  sums: (entry) => [entry.scores.tp ?? 0, entry.scores.fp ?? 0, entry.scores.fn ?? 0],
  score: (totals) => (totals[0] === 0 ? 0 : (2 * totals[0]!) / (2 * totals[0]! + totals[1]! + totals[2]!)),
};

describe('comparePairs and averageOfTasks (what compare and the viewer compute)', () => {
  it('micro F1 of summed counts, paired: A 2·3/(6+1+2) = 2/3, B 2·4/(8+0+1) = 8/9; the bootstrap test, not McNemar', () => {
    const pairs = [
      { a: row('s1', { tp: 2, fp: 1, fn: 0 }), b: row('s1', { tp: 2, fp: 0, fn: 0 }) },
      { a: row('s2', { tp: 1, fp: 0, fn: 2 }), b: row('s2', { tp: 2, fp: 0, fn: 1 }) },
    ];
    const result = comparePairs(microF1, pairs);
    expect(result.a).toBeCloseTo(2 / 3, 12);
    expect(result.b).toBeCloseTo(8 / 9, 12);
    expect(result.test).toBe('paired bootstrap');
    expect(result.onlyA).toBeNull();
    expect(result.replicates).toHaveLength(1000);
  });

  it('a task of one unit adds its difference to every round of the overall mean', () => {
    const one = comparePairs({ ...mean, key: 'one' }, [{ a: row('u', { x: 0 }), b: row('u', { x: 1 }) }]);
    expect(one.replicates).toHaveLength(0);
    const alike = comparePairs(
      { ...mean, key: 'alike' },
      ['p', 'q', 'r'].map((id, index) => ({ a: row(id, { x: index % 2 }), b: row(id, { x: index % 2 }) })),
    );
    const overall = averageOfTasks([one, alike]);
    // Every round: (1 + 0) / 2 = 0.5 — an interval of one point, and p = 0 (no round at or below 0).
    expect(overall).toMatchObject({ difference: 0.5, lower: 0.5, upper: 0.5, p: 0 });
  });
});
