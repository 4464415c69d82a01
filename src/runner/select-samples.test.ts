import { describe, expect, it } from 'vitest';
import { describeSampleLimit } from '../core/sample-limit.js';
import { firstPerTask } from './select-samples.js';

const items = ['a1', 'b1', 'a2', 'a3', 'b2', 'c1'].map((id) => ({ id, task: id[0]! }));
const taskOf = (item: { task: string }) => item.task;

describe('firstPerTask (--limit)', () => {
  it('keeps the first n of each task in their order and says what each task had', () => {
    const { kept, limit } = firstPerTask(items, taskOf, 1);
    expect(kept.map((item) => item.id)).toEqual(['a1', 'b1', 'c1']);
    expect(limit).toEqual({
      first: 1,
      tasks: { a: { kept: 1, of: 3 }, b: { kept: 1, of: 2 }, c: { kept: 1, of: 1 } },
    });
    expect(describeSampleLimit(limit!)).toBe(
      'limited to the first 1 samples of each task (--limit 1): 3 of 6 samples (a 1 of 3, b 1 of 2, c 1 of 1)',
    );
    const one = firstPerTask(
      items.filter((item) => item.task === 'a'),
      taskOf,
      2,
    );
    expect(describeSampleLimit(one.limit!)).toBe('limited to the first 2 of 3 samples (--limit 2)');
  });

  it('no limit, or one no task reaches, is the full run', () => {
    expect(firstPerTask(items, taskOf, undefined)).toEqual({ kept: items, limit: undefined });
    expect(firstPerTask(items, taskOf, 3)).toEqual({ kept: items, limit: undefined });
  });

  it('a limit that is not a whole number of at least 1 is a usage error', () => {
    for (const first of [0, -1, 1.5, Number.NaN])
      expect(() => firstPerTask(items, taskOf, first)).toThrow(/--limit/);
  });
});
