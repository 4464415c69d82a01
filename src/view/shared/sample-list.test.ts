import { describe, expect, it } from 'vitest';
import { matchesFilters, neighboursOf, sampleListOf } from './sample-list.js';
import type { ListRow } from './view-types.js';

const row = (id: string, level: number, rawOutput: string | null, status = 'ok'): ListRow => ({
  id,
  task: 'niah',
  group: 'niah-en',
  params: { level, depth: 50 },
  status,
  scores: { esm: 1 },
  counted: true,
  promptChars: null,
  promptTokens: null,
  cost: null,
  rawOutput,
});

describe('sample list rules (server and static page alike)', () => {
  const rows = [row('s10', 2000, 'Aspirin'), row('s2', 1000, '阿司匹林'), row('s1', 2000, null, 'error')];

  it('orders ids naturally, filters exactly and searches outputs in any case', () => {
    const list = sampleListOf(rows, {}, { offset: 0, limit: 10 });
    expect(list.ids).toEqual(['s1', 's2', 's10']);
    expect(list.options).toEqual({ status: ['error', 'ok'], level: ['1000', '2000'], depth: ['50'] });
    expect(sampleListOf(rows, { level: '2000' }, { offset: 0, limit: 10 }).ids).toEqual(['s1', 's10']);
    expect(sampleListOf(rows, { q: 'ASPIRIN' }, { offset: 0, limit: 10 }).ids).toEqual(['s10']);
    expect(sampleListOf(rows, { q: '司匹' }, { offset: 0, limit: 10 }).ids).toEqual(['s2']);
    expect(matchesFilters(rows[2]!, { status: 'error', q: 'S1' })).toBe(true);
  });

  it('pages the matching rows and leaves their outputs out', () => {
    const list = sampleListOf(rows, {}, { offset: 1, limit: 1 });
    expect(list.rows.map((item) => item.id)).toEqual(['s2']);
    expect(list.rows[0]).not.toHaveProperty('rawOutput');
    expect(list.matched).toBe(3);
  });

  it('finds the neighbours of a sample in a list', () => {
    expect(neighboursOf(['a', 'b', 'c'], 'b')).toEqual({ previous: 'a', next: 'c' });
    expect(neighboursOf(['a', 'b', 'c'], 'a')).toEqual({ previous: null, next: 'b' });
    expect(neighboursOf(['a'], 'z')).toEqual({ previous: null, next: null });
  });
});
