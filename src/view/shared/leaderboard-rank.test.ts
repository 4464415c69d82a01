import { describe, expect, it } from 'vitest';
import { averagedColumns, rankRows } from './leaderboard-rank.js';

const row = (label: string, values: Record<string, number | null>) => ({ label, values: { esm: values } });

describe('rankRows', () => {
  it('ranks by the mean of the columns, descending; ties share a rank and go by label; rows missing a column last', () => {
    const ranked = rankRows(
      [
        row('published', { a: 90, b: null }),
        row('zeta', { a: 50, b: 70 }),
        row('low', { a: 0, b: 10 }),
        row('Alpha', { a: 70, b: 50 }),
        row('best', { a: 100, b: 80 }),
        row('none', {}),
      ],
      'esm',
      ['a', 'b'],
    );
    expect(ranked.map((entry) => [entry.row.label, entry.average, entry.rank])).toEqual([
      ['best', 90, 1],
      ['Alpha', 60, 2],
      ['zeta', 60, 2],
      ['low', 5, 4],
      ['none', null, null],
      ['published', null, null],
    ]);
  });

  it('has no average for a variant the row lacks, or without columns', () => {
    expect(rankRows([row('x', { a: 1 })], 'ssm', ['a'])[0]!.average).toBeNull();
    expect(rankRows([row('x', { a: 1 })], 'esm', [])[0]!.average).toBeNull();
  });

  it('averages over the columns some row has, leaving out a column no row has', () => {
    const rows = [row('a', { x: 1, y: null, z: 3 }), row('b', { x: null, y: null, z: 5 })];
    expect(averagedColumns(rows, 'esm', ['x', 'y', 'z'])).toEqual(['x', 'z']);
    expect(averagedColumns(rows, 'ssm', ['x'])).toEqual([]);
  });
});
