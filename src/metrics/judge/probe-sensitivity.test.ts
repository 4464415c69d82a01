import { describe, expect, it } from 'vitest';
import { type ProbeGrade, probeSensitivity } from './probe-sensitivity.js';

const grade = (score: number, ...met: string[]): ProbeGrade => ({ score, met: new Set(met) });

describe('probeSensitivity', () => {
  it('over the items both gradings scored: mean change, items moved, flips each way, the rest unscored', () => {
    const result = probeSensitivity(
      [
        { plain: grade(0.5, 'a'), probe: grade(1, 'a', 'b') }, // +0.5; b not → met
        { plain: grade(0.5, 'a'), probe: grade(0.5, 'b') }, // same score, a met → not, b not → met
        { plain: grade(1, 'a', 'b'), probe: grade(0) }, // −1; a and b met → not
        { plain: { unscored: 'not JSON' }, probe: grade(1, 'a') },
        { plain: grade(1, 'a'), probe: undefined },
      ],
      ['a', 'b', 'c'],
      { resamples: 200, seed: 1 },
    );
    expect(result.n).toBe(3);
    expect(result.change!.estimate).toBeCloseTo((0.5 + 0 - 1) / 3, 12);
    expect(result.change!.n).toBe(3);
    expect(result.change!.lower).toBeLessThanOrEqual(result.change!.estimate);
    expect(result.change!.upper).toBeGreaterThanOrEqual(result.change!.estimate);
    expect(result.changed).toBe(2);
    expect(result.criteria).toEqual({
      a: { metToNot: 2, notToMet: 0 },
      b: { metToNot: 1, notToMet: 2 },
      c: { metToNot: 0, notToMet: 0 },
    });
    expect(result.unscored).toBe(2);
  });

  it('the same change on every item: an interval of that change alone, excluding 0; no change: 0 and [0, 0]', () => {
    const moved = probeSensitivity(
      [0, 1, 2, 3].map(() => ({ plain: grade(0.25), probe: grade(0.5, 'a') })),
      ['a'],
    );
    expect(moved.change).toMatchObject({ estimate: 0.25, lower: 0.25, upper: 0.25 });
    expect(moved.change!.p).toBeLessThan(0.05);
    expect(moved).toMatchObject({ n: 4, changed: 4, criteria: { a: { metToNot: 0, notToMet: 4 } } });
    const still = probeSensitivity(
      [0, 1, 2].map(() => ({ plain: grade(0.5, 'a'), probe: grade(0.5, 'a') })),
      ['a'],
    );
    expect(still.change).toMatchObject({ estimate: 0, lower: 0, upper: 0 });
    expect(still.changed).toBe(0);
  });

  it('no item scored by both: n 0 and no change', () => {
    expect(probeSensitivity([{ plain: { unscored: 'x' }, probe: grade(1) }], ['a'])).toEqual({
      n: 0,
      change: null,
      changed: 0,
      criteria: { a: { metToNot: 0, notToMet: 0 } },
      unscored: 1,
    });
  });
});
