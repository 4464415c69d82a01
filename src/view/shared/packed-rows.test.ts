import { describe, expect, it } from 'vitest';
import { packRows, unpackRows } from './packed-rows.js';

describe('packed rows', () => {
  it('writes each key once and gives the rows back as they were', () => {
    const rows = [
      { id: 's1', scores: { esm: 1 }, error: null },
      { id: 's2', scores: { esm: 0 }, error: 'timeout' },
    ];
    const packed = packRows(rows);
    expect(packed.columns).toEqual(['id', 'scores', 'error']);
    expect(packed.values).toEqual([
      ['s1', { esm: 1 }, null],
      ['s2', { esm: 0 }, 'timeout'],
    ]);
    expect(unpackRows(packed)).toEqual(rows);
  });
});
