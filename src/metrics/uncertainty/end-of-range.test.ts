import { describe, expect, it } from 'vitest';
import {
  bootstrapMean,
  bootstrapMicroScores,
  endOfRangeInterval,
  meanInterval,
  meanOfMeansInterval,
  stratumOf,
} from './index.js';

// Wilson's bounds at an end, by hand: 0 of U → [0, z²/(U + z²)], U of U → [U/(U + z²), 1],
// z = 1.959964, z² = 3.841459: U = 3 → 0.561497; U = 4 → 0.489891; U = 18 → 0.175879 / 0.824121.
describe('a [0, 1] score whose every unit sits at an end gets Wilson at the number of units, not [x, x]', () => {
  it('micro F1 with tp = 0 in every unit: [0, z²/(U + z²)]; with no fp or fn at all: [U/(U + z²), 1]', () => {
    const missed = [
      { tp: 0, fp: 2, fn: 1 },
      { tp: 0, fp: 0, fn: 3 },
      { tp: 0, fp: 1, fn: 0 },
      { tp: 0, fp: 1, fn: 1 },
    ];
    const { precision, recall, f1 } = bootstrapMicroScores(missed, { seed: 3 });
    expect(f1).toMatchObject({ estimate: 0, lower: 0, method: 'wilson', units: 4, n: 4, resamples: null });
    expect(f1.upper).toBeCloseTo(0.4898908365, 8);
    expect(precision.upper).toBeCloseTo(0.4898908365, 8);
    expect(recall.upper).toBeCloseTo(0.4898908365, 8);
    const perfect = bootstrapMicroScores(
      [
        { tp: 2, fp: 0, fn: 0 },
        { tp: 1, fp: 0, fn: 0 },
        { tp: 5, fp: 0, fn: 0 },
      ],
      { seed: 3 },
    );
    expect(perfect.f1).toMatchObject({ estimate: 1, upper: 1, method: 'wilson', units: 3 });
    expect(perfect.f1.lower).toBeCloseTo(1 - 0.5614970318, 8);
  });

  it('precision without a single predicted item is undefined (0 by convention): no interval, method none', () => {
    const { precision, recall } = bootstrapMicroScores([
      { tp: 0, fp: 0, fn: 2 },
      { tp: 0, fp: 0, fn: 1 },
    ]);
    expect(precision).toMatchObject({ estimate: 0, lower: 0, upper: 0, method: 'none', units: 2 });
    expect(recall).toMatchObject({ estimate: 0, method: 'wilson' });
  });

  it('a MedEureka-like average of datasets all at 100%: Wilson 18 of 18, [0.824121, 1]', () => {
    const strata = [5, 4, 4, 3, 2].map((queries, index) =>
      stratumOf(Array<number>(queries).fill(1), { seed: index + 1 }),
    );
    const average = meanOfMeansInterval(strata);
    expect(average).toMatchObject({ estimate: 1, upper: 1, method: 'wilson', units: 18, n: 18 });
    expect(average.lower).toBeCloseTo(0.8241207764, 8);
  });

  it('a mean of non-binary scores in [0, 1] all 1 (MRR) and clustered 0/1 scores all 0 (NIAH needles)', () => {
    expect(bootstrapMean([1, 1, 1])).toMatchObject({
      lower: expect.closeTo(0.4385029682, 8),
      method: 'wilson',
    });
    const needles = meanInterval([0, 0, 0, 0, 0, 0], { units: ['a', 'a', 'b', 'b', 'c', 'c'] });
    expect(needles).toMatchObject({ method: 'wilson', units: 3, n: 6, lower: 0 });
    expect(needles.upper).toBeCloseTo(0.5614970318, 8);
  });

  it('leaves what is not collapsed at an end as it is: an interior constant, a spread, scores outside [0, 1]', () => {
    const interior = bootstrapMean([0.5, 0.5, 0.5]);
    expect(interior).toMatchObject({ method: 'bootstrap', lower: 0.5, upper: 0.5 });
    expect(bootstrapMean([2, 2, 2])).toMatchObject({ method: 'bootstrap', lower: 2, upper: 2 });
    const spread = bootstrapMean([0, 1, 1, 0.5]);
    expect(endOfRangeInterval(spread)).toBe(spread);
    const one = bootstrapMean([1]);
    expect(endOfRangeInterval(one)).toMatchObject({ method: 'none' });
  });
});
