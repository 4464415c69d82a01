import { describe, expect, it } from 'vitest';
import { testListRow } from '../../test/support/list-row.js';
import { testRun } from '../../test/support/test-run.js';
import type { SuiteGrid } from '../core/suite.js';
import { summariseGroup } from './group-summary.js';
import { compareMetric } from './shared/compare-metric.js';
import type { ListRow } from './shared/view-types.js';

/** A result of a toy task over two numeric params of its own, `rounds` and `width`. */
function row(id: string, params: Record<string, unknown>, accuracy: number): ListRow {
  return testListRow({ id, task: 'toy', params, scores: { accuracy } });
}

const rows = [
  row('a', { rounds: 1, width: 10, level: 4000, depth: 0 }, 1),
  row('b', { rounds: 1, width: 20, level: 4000, depth: 0 }, 0),
  row('c', { rounds: 2, width: 10, level: 8000, depth: 50 }, 1),
  row('d', { rounds: 2, width: 10, level: 8000, depth: 50 }, 0),
];
const grid: SuiteGrid = {
  rows: { param: 'rounds', name: 'rounds' },
  columns: { param: 'width', name: 'width', unit: ' px', chartAxis: 'width (pixels)' },
};

describe("a run page's grid", () => {
  it('takes its axes from the suite (`Suite.grid`), whatever the params are called', () => {
    const summary = summariseGroup(testRun({ id: 'r' }), 'toy', rows, rows, 'accuracy', grid);
    expect(summary.grid).toMatchObject({
      metric: 'accuracy',
      rows: { param: 'rounds', name: 'rounds', values: [1, 2] },
      columns: { param: 'width', unit: ' px', values: [10, 20] },
    });
    expect(
      Object.fromEntries(
        Object.entries(summary.grid!.cells).map(([key, cell]) => [key, [cell.estimate, cell.n]]),
      ),
    ).toEqual({ '1|10': [1, 1], '1|20': [0, 1], '2|10': [0.5, 2] });
    expect(summary.byColumn!.axis.chartAxis).toBe('width (pixels)');
    expect(Object.keys(summary.byColumn!.points)).toEqual(['10', '20']);
    expect(summary.byColumn!.points['10']).toMatchObject({ estimate: 2 / 3, n: 3 });
  });

  it("draws none for a suite that declares none, though its results have NIAH's level and depth", () => {
    const summary = summariseGroup(testRun({ id: 'r' }), 'toy', rows, rows, 'accuracy', undefined);
    expect(summary.grid).toBeUndefined();
    expect(summary.byColumn).toBeUndefined();
  });

  it('draws no line along columns that take one value', () => {
    const single = rows.filter((entry) => entry.params.width === 10);
    const summary = summariseGroup(testRun({ id: 'r' }), 'toy', single, single, 'accuracy', grid);
    expect(summary.grid!.columns.values).toEqual([10]);
    expect(summary.byColumn).toBeUndefined();
  });
});

describe("a run page's intervals", () => {
  const needles = ['n1', 'n1', 'n1', 'n2', 'n2', 'n2', 'n3', 'n3', 'n3', 'n4', 'n4', 'n4'];
  const scores = [1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 1];
  const independent = needles.map((needle, index) =>
    row(`s${index}`, { needle, rounds: 1, width: 10 * (index % 3) }, scores[index]!),
  );
  // As the viewer lists them for a suite whose `unitOf` names the needle.
  const clustered = independent.map((entry) => ({ ...entry, unit: String(entry.params.needle) }));

  it('are Wilson for 0/1 scores of independent samples, and the bootstrap by unit when the suite clusters', () => {
    const plain = summariseGroup(
      testRun({ id: 'r' }),
      'toy',
      independent,
      independent,
      'accuracy',
      undefined,
    );
    expect(plain.metrics.accuracy).toMatchObject({ method: 'wilson', units: 12, n: 12, estimate: 8 / 12 });
    const byNeedle = summariseGroup(testRun({ id: 'r' }), 'toy', clustered, clustered, 'accuracy', grid);
    const interval = byNeedle.metrics.accuracy!;
    expect(interval).toMatchObject({
      method: 'bootstrap',
      units: 4,
      n: 12,
      estimate: 8 / 12,
      resamples: 1000,
    });
    // Whole needles right or wrong: the clustered interval is wider than Wilson's at 12 independent samples.
    expect(interval.upper - interval.lower).toBeGreaterThan(
      plain.metrics.accuracy!.upper - plain.metrics.accuracy!.lower,
    );
    // A grid cell holds one sample per needle: independent again.
    expect(byNeedle.grid!.cells['1|10']).toMatchObject({ method: 'wilson', units: 4, n: 4 });
  });

  it("compare two runs by McNemar on 0/1 scores of single samples, by the paired bootstrap over units otherwise (compare's rule)", () => {
    const pairs = (rows: readonly ListRow[], score: (index: number) => number) =>
      rows.map((entry, index) => ({ a: entry, b: { ...entry, scores: { accuracy: score(index) } } }));
    const binary = (index: number) => (index % 4 === 0 ? 0 : 1);
    expect(compareMetric('toy', 'accuracy', pairs(independent, binary)).test).toBe('McNemar (exact)');
    // Samples of one needle are not independent pairs, as McNemar assumes: the bootstrap over needles.
    expect(compareMetric('toy', 'accuracy', pairs(clustered, binary))).toMatchObject({
      test: 'paired bootstrap',
      units: 4,
    });
    const graded = (index: number) => (index % 4) / 4;
    expect(compareMetric('toy', 'accuracy', pairs(clustered, graded))).toMatchObject({
      test: 'paired bootstrap',
      units: 4,
    });
    expect(compareMetric('toy', 'accuracy', pairs(independent, graded))).toMatchObject({
      test: 'paired bootstrap',
      units: 12,
    });
  });
});
