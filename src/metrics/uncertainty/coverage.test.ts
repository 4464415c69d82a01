import { describe, expect, it } from 'vitest';
import { bootstrapMean, bootstrapMicroScores, meanInterval, seededRandom } from './index.js';

/** Datasets per check, scaled by MEDBENCH_FUZZ_SCALE (as the fuzz tests are): small in CI, larger in a long hunt. */
const SCALE = Math.max(1, Number(process.env.MEDBENCH_FUZZ_SCALE ?? 1) || 1);
const DATASETS = Math.round(300 * SCALE);
const RESAMPLES = 400;

/** Share of datasets whose interval holds the truth, and the tolerance of that share around 95%. */
function coverage(
  draw: (random: () => number) => { lower: number; upper: number },
  truth: number,
  seed: number,
) {
  const random = seededRandom(seed);
  let covered = 0;
  for (let dataset = 0; dataset < DATASETS; dataset++) {
    const { lower, upper } = draw(random);
    if (lower <= truth && truth <= upper) covered++;
  }
  return covered / DATASETS;
}

/** Four binomial standard errors at 95%, plus 2 points for the percentile bootstrap's small-sample bias. */
const TOLERANCE = 4 * Math.sqrt((0.95 * 0.05) / DATASETS) + 0.02;

/** A normal draw (Box–Muller). */
const normal = (random: () => number) =>
  Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

describe('coverage on synthetic data with a known truth', () => {
  it('Wilson covers a proportion ≈ 95% (p = 0.15, n = 60)', () => {
    const share = coverage(
      (random) => meanInterval(Array.from({ length: 60 }, () => (random() < 0.15 ? 1 : 0))),
      0.15,
      1,
    );
    expect(Math.abs(share - 0.95)).toBeLessThan(TOLERANCE);
  });

  it('the bootstrap covers the mean of a skewed score ≈ 95% (n = 80)', () => {
    // Scores u² with u uniform: mean 1/3.
    let dataset = 0;
    const share = coverage(
      (random) =>
        bootstrapMean(
          Array.from({ length: 80 }, () => random() ** 2),
          { resamples: RESAMPLES, seed: dataset++ },
        ),
      1 / 3,
      2,
    );
    expect(Math.abs(share - 0.95)).toBeLessThan(TOLERANCE);
  });

  it('the cluster bootstrap covers ≈ 95% under cluster effects, where ignoring clusters does not', () => {
    // 40 needles × 8 depths; a needle's samples share its difficulty: P(correct) = Φ-ish clamp of 0.6 + 0.25·z.
    const clustered = (random: () => number) => {
      const values: number[] = [];
      const units: string[] = [];
      for (let needle = 0; needle < 40; needle++) {
        const p = Math.min(1, Math.max(0, 0.6 + 0.25 * normal(random)));
        for (let depth = 0; depth < 8; depth++) {
          values.push(random() < p ? 1 : 0);
          units.push(`needle-${needle}`);
        }
      }
      return { values, units };
    };
    // The truth: the expected mean of clamp(0.6 + 0.25 z), by a fine quadrature over z.
    let truth = 0;
    let weight = 0;
    for (let z = -8; z <= 8; z += 0.001) {
      const density = Math.exp((-z * z) / 2);
      truth += density * Math.min(1, Math.max(0, 0.6 + 0.25 * z));
      weight += density;
    }
    truth /= weight;
    let seed = 0;
    const withUnits = coverage(
      (random) => {
        const { values, units } = clustered(random);
        return bootstrapMean(values, { units, resamples: RESAMPLES, seed: seed++ });
      },
      truth,
      3,
    );
    const ignoringUnits = coverage((random) => meanInterval(clustered(random).values), truth, 3);
    expect(Math.abs(withUnits - 0.95)).toBeLessThan(TOLERANCE);
    expect(ignoringUnits).toBeLessThan(0.85);
  });

  it('micro F1 by the cluster bootstrap covers the population micro F1 ≈ 95%', () => {
    // Per row: tp ~ 0..3, fp and fn ~ 0..2 uniform and independent: E[tp] = 1.5, E[fp] = E[fn] = 1 → F1 = 3 / 5.
    let seed = 100;
    const share = coverage(
      (random) => {
        const count = (top: number) => Math.floor(random() * (top + 1));
        const rows = Array.from({ length: 60 }, () => ({ tp: count(3), fp: count(2), fn: count(2) }));
        return bootstrapMicroScores(rows, { resamples: RESAMPLES, seed: seed++ }).f1;
      },
      0.6,
      4,
    );
    expect(Math.abs(share - 0.95)).toBeLessThan(TOLERANCE);
  });
});
