import { describe, expect, it } from 'vitest';
import { testListRow } from '../../../test/support/list-row.js';
import { testRun } from '../../../test/support/test-run.js';
import { describeRun } from '../view-rows.js';
import { compareGroups } from './compare-groups.js';
import type { ListRow } from './view-types.js';

const row = (id: string, accuracy: number, output: string): ListRow =>
  testListRow({ id, task: 'term', scores: { accuracy }, rawOutput: output });

// Run A: 3 epochs, majority. Epoch scores per sample; epoch e > 1 stored as `<id>#epoch<e>`.
const epochsA: Record<string, number[]> = {
  s1: [0, 1, 1],
  s2: [0, 1, 1],
  s3: [1, 0, 0],
  s4: [1, 1, 1],
  s5: [0, 0, 0],
};
const rowsA = Object.entries(epochsA).flatMap(([id, scores]) =>
  scores.map((score, index) =>
    row(index === 0 ? id : `${id}#epoch${index + 1}`, score, `${id} A${index + 1}`),
  ),
);
const rowsB = [1, 0, 0, 1, 1].map((score, index) => row(`s${index + 1}`, score, `s${index + 1} B`));
const side = (id: string, parameters: Record<string, unknown>, rows: ListRow[]) => ({
  run: describeRun(testRun({ id, parameters }), false),
  rows,
  figures: [],
});
const names = { title: 'Term', metricNames: {}, primary: 'accuracy' };

describe('the compare page of an --epochs run', () => {
  it("pairs each sample's epochs reduced as report and compare do, not epoch rows one by one", () => {
    const comparison = compareGroups(
      'term',
      names,
      side('a', { epochs: 3, epochReducers: { term: 'majority' } }, rowsA),
      side('b', {}, rowsB),
    )!;
    // Majority of A's epochs: s1 1, s2 1, s3 0, s4 1, s5 0 → 0.6 (epoch 1 alone: 0.4; the mean: 0.533);
    // B: 1, 0, 0, 1, 1 → 0.6. Discordant: s2 (A only), s5 (B only).
    expect(comparison.paired).toBe(5);
    const [accuracy] = comparison.metrics;
    expect(accuracy).toMatchObject({ meanA: 0.6, meanB: 0.6, difference: 0, onlyA: 1, onlyB: 1, p: 1 });
    expect(accuracy!.test).toBe('McNemar (exact)');
    expect(comparison.disagreements.map((entry) => [entry.id, entry.a, entry.outputA])).toEqual([
      ['s2', { accuracy: 1 }, 's2 A1'],
      ['s5', { accuracy: 0 }, 's5 A1'],
    ]);
  });

  it("a mean reducer: each sample's epochs averaged; a run of one epoch: its rows as they are", () => {
    const comparison = compareGroups(
      'term',
      names,
      side('a', { epochs: 3, epochReducers: { term: 'mean' } }, rowsA),
      side('b', {}, rowsB),
    )!;
    expect(comparison.paired).toBe(5);
    expect(comparison.metrics[0]!.meanA).toBeCloseTo((2 / 3 + 2 / 3 + 1 / 3 + 1 + 0) / 5, 12);
    expect(comparison.metrics[0]!.test).toBe('paired bootstrap');
    const plain = compareGroups('term', names, side('a', {}, rowsB), side('b', {}, rowsB))!;
    expect(plain).toMatchObject({ paired: 5, metrics: [{ meanA: 0.6, meanB: 0.6 }] });
  });
});
