import { describe, expect, it } from 'vitest';
import { seededRandom } from '../uncertainty/index.js';
import { predictionPoweredMean, tunedLambda } from './index.js';

describe('prediction-powered mean, computed by hand', () => {
  // Four graded items and six the judge alone scored.
  const input = { human: [1, 0, 1, 1], judge: [1, 1, 1, 0], unlabelledJudge: [1, 1, 0, 1, 1, 0] };

  it('classic PPI (λ = 1): the judge mean minus its mean error, variances of both parts', () => {
    // mean f̃ = 4/6; mean(Y − f) = (0 − 1 + 0 + 1)/4 = 0 → θ̂ = 2/3.
    // s²(f̃) = (4·(1/3)² + 2·(2/3)²)/5 = 4/15; s²(Y − f) = 2/3; se² = (4/15)/6 + (2/3)/4 = 19/90.
    const ppi = predictionPoweredMean(input, { lambda: 1 });
    expect(ppi.estimate).toBeCloseTo(2 / 3, 12);
    expect(ppi.standardError).toBeCloseTo(Math.sqrt(19 / 90), 12);
    // numpy/scipy: [−0.2338746371747038, 1.567207970508037]; normalQuantile's z is good to ~1e-9.
    expect(ppi.lower).toBeCloseTo(-0.2338746371747038, 8);
    expect(ppi.upper).toBeCloseTo(1.567207970508037, 8);
    expect(ppi).toMatchObject({ method: 'ppi', lambda: 1, labelled: 4, unlabelled: 6, level: 0.95 });
    expect(ppi.judgeMean).toBeCloseTo(2 / 3, 12);
    expect(ppi.bias).toBeCloseTo(0, 12);
  });

  it('λ = 0.5 and λ = 0 (the human grades alone, = labelledOnly)', () => {
    // λ = 0.5: 0.5·(2/3) + mean(1 − .5, 0 − .5, 1 − .5, 1 − 0) = 1/3 + 3/8; numpy: se 0.331767153956573.
    const half = predictionPoweredMean(input, { lambda: 0.5 });
    expect(half.estimate).toBeCloseTo(1 / 3 + 3 / 8, 12);
    expect(half.standardError).toBeCloseTo(0.331767153956573, 12);
    // λ = 0: mean Y = 3/4, s²(Y) = 1/4, se = √(1/16) = 1/4.
    const none = predictionPoweredMean(input, { lambda: 0 });
    expect(none.estimate).toBeCloseTo(0.75, 12);
    expect(none.standardError).toBeCloseTo(0.25, 12);
    expect(none.lower).toBeCloseTo(0.2600090038649865, 8);
    expect(none.labelledOnly).toEqual({
      estimate: none.estimate,
      lower: none.lower,
      upper: none.upper,
      level: 0.95,
      standardError: none.standardError,
    });
  });

  it("PPI++'s λ: Cov(Y, f) / ((1 + n/N) · Var(f over all items)), checked with numpy", () => {
    const graded = {
      human: [0.9, 0.2, 0.6, 0.4, 0.8],
      judge: [0.8, 0.3, 0.7, 0.2, 0.9],
      unlabelledJudge: [0.5, 0.6, 0.1, 0.9, 0.4, 0.7, 0.3],
    };
    // numpy: np.cov(Y, f)[0, 1] / ((1 + 5/7) · np.concatenate([f, f̃]).var(ddof=1)).
    expect(tunedLambda(graded)).toBeCloseTo(0.617086693548387, 12);
    const tuned = predictionPoweredMean(graded);
    expect(tuned).toMatchObject({ method: 'ppi++' });
    expect(tuned.estimate).toBeCloseTo(0.530633064516129, 12);
    expect(tuned.standardError).toBeCloseTo(0.08928631011181407, 12);
    // A judge that does not vary gets no weight; an anticorrelated one is clipped to 0.
    expect(tunedLambda({ ...graded, judge: [1, 1, 1, 1, 1], unlabelledJudge: [1, 1] })).toBe(0);
    expect(tunedLambda({ ...graded, judge: graded.judge.map((value) => 1 - value) })).toBe(0);
  });

  it('refuses mismatched or too few grades, naming them', () => {
    expect(() => predictionPoweredMean({ ...input, judge: [1, 1, 1] })).toThrow(
      /4 human grades for 3 judge scores/,
    );
    expect(() => predictionPoweredMean({ ...input, unlabelledJudge: [1] })).toThrow(
      /at least 2 judge scores of the unlabelled items/,
    );
    expect(() => predictionPoweredMean({ ...input, human: [1, 0, Number.NaN, 1] })).toThrow(
      /human grades\[2\]/,
    );
    expect(() => predictionPoweredMean(input, { level: 95 })).toThrow(/confidence level/);
  });
});

/** A normal draw (Box–Muller). */
const normal = (random: () => number) =>
  Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/**
 * 1,000 items, 5% graded by clinicians. An item's quality q ~ U(0, 1); a clinician's grade is
 * q + N(0, 0.1²) (truth: E[grade] = 0.5); the judge scores 0.8·q + 0.15 + N(0, noise²): lenient by
 * 0.05 on average, so its own mean misses the truth.
 */
function synthetic(random: () => number, noise: number) {
  const labelled = 50;
  const human: number[] = [];
  const judge: number[] = [];
  const unlabelledJudge: number[] = [];
  for (let item = 0; item < 1000; item++) {
    const quality = random();
    const score = 0.8 * quality + 0.15 + noise * normal(random);
    if (item < labelled) {
      human.push(quality + 0.1 * normal(random));
      judge.push(score);
    } else unlabelledJudge.push(score);
  }
  return { human, judge, unlabelledJudge };
}

describe('prediction-powered inference on synthetic data with a known truth', () => {
  const scale = Math.max(1, Number(process.env.MEDBENCH_FUZZ_SCALE ?? 1) || 1);
  const datasets = Math.round(200 * scale);
  // Four binomial standard errors of a 95% coverage over the datasets (±0.062 at 200).
  const tolerance = 4 * Math.sqrt((0.95 * 0.05) / datasets);

  function simulate(noise: number, seed: number) {
    const random = seededRandom(seed);
    const tally = { ppi: 0, tuned: 0, judgeOnly: 0, ppiWidth: 0, tunedWidth: 0, labelledWidth: 0 };
    for (let dataset = 0; dataset < datasets; dataset++) {
      const data = synthetic(random, noise);
      const ppi = predictionPoweredMean(data, { lambda: 1 });
      const tuned = predictionPoweredMean(data);
      const covers = (interval: { lower: number; upper: number }) =>
        interval.lower <= 0.5 && 0.5 <= interval.upper;
      tally.ppi += covers(ppi) ? 1 : 0;
      tally.tuned += covers(tuned) ? 1 : 0;
      // The judge's own mean with its standard error: what an uncorrected judge score would claim.
      const half = 1.96 * (ppi.standardError / 4);
      tally.judgeOnly += covers({ lower: ppi.judgeMean - half, upper: ppi.judgeMean + half }) ? 1 : 0;
      tally.ppiWidth += (ppi.upper - ppi.lower) / datasets;
      tally.tunedWidth += (tuned.upper - tuned.lower) / datasets;
      tally.labelledWidth += (ppi.labelledOnly.upper - ppi.labelledOnly.lower) / datasets;
    }
    return {
      ...tally,
      ppi: tally.ppi / datasets,
      tuned: tally.tuned / datasets,
      judgeOnly: tally.judgeOnly / datasets,
    };
  }

  it('a good judge: PPI and PPI++ cover ≈ 95% and are narrower than the human grades alone', () => {
    const result = simulate(0.05, 39);
    expect(Math.abs(result.ppi - 0.95)).toBeLessThan(tolerance);
    expect(Math.abs(result.tuned - 0.95)).toBeLessThan(tolerance);
    expect(result.judgeOnly).toBeLessThan(0.5);
    expect(result.ppiWidth).toBeLessThan(0.8 * result.labelledWidth);
    expect(result.tunedWidth).toBeLessThan(0.8 * result.labelledWidth);
  });

  it('a noisy judge: still ≈ 95%; PPI++ falls back towards the human grades instead of widening', () => {
    const result = simulate(0.6, 40);
    expect(Math.abs(result.ppi - 0.95)).toBeLessThan(tolerance);
    expect(Math.abs(result.tuned - 0.95)).toBeLessThan(tolerance);
    expect(result.ppiWidth).toBeGreaterThan(result.labelledWidth);
    expect(result.tunedWidth).toBeLessThan(1.05 * result.labelledWidth);
  });
});
