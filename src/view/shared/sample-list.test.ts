import { describe, expect, it } from 'vitest';
import { filtersOf, matchesFilters, neighboursOf, sampleListOf, searchPrompts } from './sample-list.js';
import type { ListRow, SampleFilter } from './view-types.js';

/** What a suite declares (`Suite.sampleFilters`): here a length and a depth, in that order. */
const declared: SampleFilter[] = [
  { param: 'level', label: 'length' },
  { param: 'depth', label: 'depth' },
];
const page = { offset: 0, limit: 10 };

const row = (id: string, level: number, rawOutput: string | null, status = 'ok'): ListRow => ({
  id,
  task: 'niah',
  group: 'niah-en',
  params: { level, depth: 50 },
  status,
  scores: { esm: 1 },
  counted: true,
  unit: null,
  promptChars: null,
  promptTokens: null,
  cost: null,
  rawOutput,
});

describe('sample list rules (server and static page alike)', () => {
  const rows = [row('s10', 2000, 'Aspirin'), row('s2', 1000, '阿司匹林'), row('s1', 2000, null, 'error')];

  it('orders ids naturally, filters exactly and searches outputs in any case', () => {
    const list = sampleListOf(rows, {}, page, { declared });
    expect(list.ids).toEqual(['s1', 's2', 's10']);
    expect(list.filters).toEqual(declared);
    expect(list.options).toEqual({ status: ['error', 'ok'], level: ['1000', '2000'], depth: ['50'] });
    expect(sampleListOf(rows, { level: '2000' }, page, { declared }).ids).toEqual(['s1', 's10']);
    expect(sampleListOf(rows, { q: 'ASPIRIN' }, page, { declared }).ids).toEqual(['s10']);
    expect(sampleListOf(rows, { q: '司匹' }, page, { declared }).ids).toEqual(['s2']);
    expect(matchesFilters(rows[2]!, { status: 'error', q: 'S1' }, { declared })).toBe(true);
  });

  it('filters by the params the suite declares, and by no other', () => {
    const undeclared = sampleListOf(rows, { level: '2000' }, page, { declared: [] });
    expect(undeclared.ids).toEqual(['s1', 's2', 's10']);
    expect(undeclared.filters).toEqual([]);
    expect(undeclared.options).toEqual({ status: ['error', 'ok'] });
    const depthOnly = sampleListOf(rows, { level: '2000', depth: '50' }, page, { declared: [declared[1]!] });
    expect(depthOnly.ids).toEqual(['s1', 's2', 's10']);
    // What it applied: a key the suite does not declare is not said to filter (the sample page's "within").
    expect(depthOnly.within).toEqual({ depth: '50' });
    expect(sampleListOf(rows, { size: 'small', status: 'ok', q: '' }, page, { declared }).within).toEqual({
      status: 'ok',
    });
    expect(sampleListOf(rows, { depth: '25' }, page, { declared: [declared[1]!] }).ids).toEqual([]);
  });

  it("reads filters from a route's query, leaving the route's own keys out", () => {
    const query = new URLSearchParams(
      'run=r1&group=niah-en&id=s1&offset=100&limit=5&level=4000&q=&status=ok',
    );
    expect(filtersOf(query)).toEqual({ level: '4000', status: 'ok' });
  });

  it('pages the matching rows and leaves their outputs out', () => {
    const list = sampleListOf(rows, {}, { offset: 1, limit: 1 }, { declared });
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

describe('prompt search', () => {
  const rows = [
    { id: 'a', promptHash: 'h1' },
    { id: 'b', promptHash: 'h2' },
    { id: 'c', promptHash: 'h1' },
    { id: 'd', promptHash: null },
  ];
  const prompts: Record<string, string> = {
    h1: 'The haystack mentions ASPIRIN once.',
    h2: '患者服用阿司匹林',
  };

  it('finds the samples whose prompt holds the text, any case, reading each prompt once', () => {
    const reads: string[] = [];
    const found = searchPrompts(rows, 'aspirin', (hash) => {
      reads.push(hash);
      return prompts[hash];
    });
    expect([...found.matches]).toEqual(['a', 'c']);
    expect(reads).toEqual(['h1', 'h2']);
    expect([found.searched, found.total]).toEqual([2, 2]);
    expect([...searchPrompts(rows, '阿司匹林', (hash) => prompts[hash]).matches]).toEqual(['b']);
  });

  it('stops at its budget and says how many prompts it searched', () => {
    const found = searchPrompts(rows, '阿司匹林', (hash) => prompts[hash], 10);
    expect([found.searched, found.total]).toEqual([1, 2]);
    expect(found.matches.size).toBe(0);
    const list = sampleListOf(
      rows.map((row) => ({ ...listRow(row.id), rawOutput: null })),
      { q: 'aspirin', prompts: '1' },
      { offset: 0, limit: 10 },
      { declared: [], prompts: searchPrompts(rows, 'aspirin', (hash) => prompts[hash]) },
    );
    expect(list.ids).toEqual(['a', 'c']);
    expect(list.promptSearch).toEqual({ searched: 2, total: 2 });
  });
});

function listRow(id: string): ListRow {
  return {
    id,
    task: 'niah',
    group: 'g',
    params: {},
    status: 'ok',
    scores: {},
    counted: true,
    unit: null,
    promptChars: null,
    promptTokens: null,
    cost: null,
  };
}
