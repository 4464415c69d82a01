import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  effectiveLength,
  effectiveLengthEstimates,
  effectiveThreshold,
  NOLIMA_FRACTION,
  RULER_THRESHOLD,
} from './effective-length.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../test/fixtures/long-context', name), 'utf8'));

/** The printed effective length as the rule's result: ">128K" every level passes, "<4K" none, else the length. */
function printed(effective: string, levels: readonly number[]): { passing: number } {
  if (effective.startsWith('>')) return { passing: levels.length };
  if (effective.startsWith('<')) return { passing: 0 };
  return { passing: levels.indexOf(Number(effective.replace(/K$/i, '')) * 1000) + 1 };
}

describe("the rules against the papers' tables", () => {
  it("RULER's fixed threshold returns every effective length RULER's Table 3 prints", () => {
    const table = fixture('ruler-table-3.json');
    expect(table.threshold).toBe(RULER_THRESHOLD);
    expect(table.models).toHaveLength(27);
    for (const model of table.models) {
      const result = effectiveLength(table.levels, model.scores, {
        kind: 'fixed',
        threshold: table.threshold,
      });
      expect({ model: model.model, passing: result.passing }).toEqual({
        model: model.model,
        ...printed(model.effective, table.levels),
      });
    }
  });

  it("NoLiMa's self-relative rule, on the printed base scores, returns every effective length and threshold of NoLiMa's Table 3", () => {
    const table = fixture('nolima-table-3.json');
    expect(table.fraction).toBe(NOLIMA_FRACTION);
    expect(table.models).toHaveLength(12);
    for (const model of table.models) {
      const rule = { kind: 'relative', fraction: table.fraction, base: model.base } as const;
      const result = effectiveLength(table.levels, model.scores, rule);
      expect({ model: model.model, passing: result.passing }).toEqual({
        model: model.model,
        ...printed(model.effective, table.levels),
      });
      // The table prints 0.85 × base to one decimal, from the unrounded base (Jamba 1.5 Mini:
      // 0.85 × 92.4 = 78.54, printed 78.6): within the two roundings of the printed values.
      expect(Math.abs(result.threshold! - model.printedThreshold)).toBeLessThanOrEqual(0.85 * 0.05 + 0.05);
      // The printed threshold itself gives the same lengths.
      const fixed = effectiveLength(table.levels, model.scores, {
        kind: 'fixed',
        threshold: model.printedThreshold,
      });
      expect(fixed.passing).toBe(result.passing);
    }
  });
});

describe('effectiveLength on known answers', () => {
  const levels = [4000, 8000, 16000, 32000];
  it('fixed: the longest level up to which every score reaches the threshold (equal passes)', () => {
    expect(effectiveLength(levels, [90, 85.6, 80, 95], { kind: 'fixed', threshold: 85.6 })).toEqual({
      threshold: 85.6,
      passing: 2,
      length: 8000,
    });
    expect(effectiveLength(levels, [80, 90, 90, 90], { kind: 'fixed', threshold: 85.6 }).length).toBeNull();
    expect(effectiveLength(levels, [99, 99, 99, 99], { kind: 'fixed', threshold: 85.6 }).passing).toBe(4);
    expect(effectiveLength(levels, [99, null, 99, 99], { kind: 'fixed', threshold: 50 }).length).toBe(4000);
  });

  it("relative: 85% of the shortest level's score; a low shortest level gets a low bar, a zero one none", () => {
    const rule = { kind: 'relative', fraction: 0.85 } as const;
    expect(effectiveLength(levels, [80, 68, 67.9, 70], rule)).toEqual({
      threshold: 68,
      passing: 2,
      length: 8000,
    });
    expect(effectiveLength(levels, [20, 18, 17, 16], rule)).toMatchObject({ passing: 3, length: 16000 });
    expect(effectiveLength(levels, [0, 0, 0, 0], rule)).toEqual({
      threshold: null,
      passing: 0,
      length: null,
    });
    expect(effectiveThreshold([null, 50], rule)).toBeNull();
    expect(effectiveThreshold([50], { kind: 'relative', fraction: 0.5, base: 90 })).toBe(45);
  });

  it('refuses scores that do not match the levels', () => {
    expect(() => effectiveLength(levels, [1, 2], { kind: 'fixed', threshold: 1 })).toThrow(RangeError);
  });
});

describe('effectiveLengthEstimates: the bootstrap over units', () => {
  // Two levels, one [correct, counted] pair per level per unit: 10 units all right at 4k; at 8k
  // `right` of them right.
  const units = (right: number) => Array.from({ length: 10 }, (_, unit) => [1, 1, unit < right ? 1 : 0, 1]);
  const scoreOf = (totals: ArrayLike<number>, offset: number) =>
    totals[offset + 1]! > 0 ? (100 * totals[offset]!) / totals[offset + 1]! : null;
  const estimates = (right: number, rules: Parameters<typeof effectiveLengthEstimates>[0]['rules']) =>
    effectiveLengthEstimates({
      levels: [4000, 8000],
      unitSums: units(right),
      dims: 2,
      scoreOf,
      rules,
      intervals: { resamples: 400, seed: 7 },
    });
  const estimate = (right: number) => estimates(right, [{ kind: 'fixed', threshold: 85.6 }])[0]!;

  it('every unit passing every level: the interval is the estimate', () => {
    expect(estimate(10)).toMatchObject({ passing: 2, length: 8000, interval: { lower: 8000, upper: 8000 } });
  });

  it('a level near the threshold: the interval spans it (9 of 10 right = 90%, resamples fall below 85.6)', () => {
    const result = estimate(9);
    expect(result).toMatchObject({ passing: 2, length: 8000 });
    expect(result.interval).toMatchObject({ lowerPassing: 1, lower: 4000, upperPassing: 2, upper: 8000 });
  });

  it('without interval settings, no interval', () => {
    expect(
      effectiveLengthEstimates({
        levels: [4000],
        unitSums: [[1, 1]],
        dims: 2,
        scoreOf,
        rules: [{ kind: 'fixed', threshold: 50 }],
      })[0]!.interval,
    ).toBeUndefined();
  });

  it('several rules share one set of resamples: each as if bootstrapped alone with the same seed', () => {
    const fixed = { kind: 'fixed', threshold: 95 } as const;
    const relative = { kind: 'relative', fraction: 0.5 } as const;
    const together = estimates(9, [fixed, relative]);
    expect(together).toEqual([estimates(9, [fixed])[0], estimates(9, [relative])[0]]);
    expect(together[0]!.interval).not.toEqual(together[1]!.interval);
  });
});
