import { describe, expect, it } from 'vitest';
import { countingTable, niahTable, type ResultLike } from './aggregate.js';

function niah(level: number, depth: number, esm: number, status: ResultLike['status'] = 'ok'): ResultLike {
  return { task: 'niah', params: { language: 'en', level, depth }, status, scores: { esm, ssm: 1 } };
}

describe('NIAH tables', () => {
  it('shows levels beyond the window as — and leaves them out of every total', () => {
    const results = [
      niah(4000, 0, 1),
      niah(4000, 50, 0),
      niah(200000, 0, 0, 'too_long'),
      niah(200000, 50, 0, 'too_long'),
    ];
    const table = niahTable({ results, language: 'en', metric: 'esm', contextWindow: 128000 })!;
    expect(table.cells['0']!['200000']).toBeNull();
    expect(table.byLevel['200000']).toBeNull();
    expect(table.all).toEqual({ correct: 1, counted: 2 });
    expect(table.byDepth['0']).toEqual({ correct: 1, counted: 1 });
    expect(table.excludedLevels).toEqual([200000]);
    expect(table.statuses.too_long).toBe(2);
  });

  it('counts too_long samples within the window as wrong', () => {
    const results = [niah(128000, 0, 0, 'too_long'), niah(128000, 0, 1)];
    const table = niahTable({ results, language: 'en', metric: 'esm', contextWindow: 128000 })!;
    expect(table.all).toEqual({ correct: 1, counted: 2 });
  });

  it('is undefined for a language without results', () => {
    expect(
      niahTable({ results: [niah(4000, 0, 1)], language: 'zh', metric: 'esm', contextWindow: null }),
    ).toBeUndefined();
  });
});

describe('Counting tables', () => {
  it('counts every sample per type, too_long ones as wrong (GPT-4o: 10/28)', () => {
    const types = ['repeat', 'increase', 'shuffle', 'correction'];
    const results: ResultLike[] = [];
    for (const type of types) {
      for (const level of [4000, 8000, 16000, 32000, 64000, 128000, 200000]) {
        const tooLong = level === 200000;
        results.push({
          task: 'counting',
          params: { language: 'zh', level, countingType: type },
          status: tooLong ? 'too_long' : 'ok',
          scores: { esm: !tooLong && type === 'increase' ? 1 : 0, ssm: 0 },
        });
      }
    }
    const table = countingTable({ results, language: 'zh', metric: 'esm' })!;
    expect(table.byType.increase).toEqual({ correct: 6, counted: 7 });
    expect(table.all).toEqual({ correct: 6, counted: 28 });
    expect(table.statuses.too_long).toBe(4);
  });
});
