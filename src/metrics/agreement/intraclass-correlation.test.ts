import { describe, expect, it } from 'vitest';
import { fDistribution, fQuantile, type IccEstimate, intraclassCorrelation, logGamma } from './index.js';

describe('the F distribution', () => {
  it('quantiles match scipy.stats.f.ppf (and the printed tables) to 1e-12, integer and fractional df', () => {
    // python3 -c "from scipy.stats import f; print(f.ppf(p, d1, d2))", scipy 1.17.1.
    const cases: [number, number, number, number][] = [
      [0.975, 5, 15, 3.5764153492790607], // tables: 3.58
      [0.975, 15, 5, 6.427728167078779], // tables: 6.43
      [0.95, 3, 15, 3.2873821046365115], // tables: 3.29
      [0.025, 5, 15, 0.15557596307848703],
      [0.975, 5, 3.3, 12.553549787381687],
      [0.999, 1, 1, 405284.0679028482],
      [0.5, 2, 200, 0.6955550056718809],
      [0.975, 1000, 1000, 1.1320494987955811],
      [0.9999, 4, 7, 35.22200611936081],
    ];
    for (const [p, df1, df2, expected] of cases)
      expect(fQuantile(p, df1, df2) / expected - 1, `F(${df1}, ${df2}) at ${p}`).toBeCloseTo(0, 12);
  });

  it('the CDF and its complement, and ln Γ', () => {
    // scipy: f.cdf(11.03, 5, 15) = 0.9998656221479509, f.sf = 0.00013437785204911817.
    const { cdf, survival } = fDistribution(11.03, 5, 15);
    expect(cdf).toBeCloseTo(0.9998656221479509, 13);
    expect(survival / 0.00013437785204911817 - 1).toBeCloseTo(0, 10);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 13);
    expect(logGamma(10)).toBeCloseTo(Math.log(362_880), 12);
    expect(() => fQuantile(0.5, 0, 3)).toThrow(/degrees of freedom/);
  });
});

/** An ICC's estimate and bounds against reference values, to 10 decimals. */
function expectBounds(icc: IccEstimate, [estimate, lower, upper]: [number, number, number]) {
  expect(icc.estimate, icc.form).toBeCloseTo(estimate, 10);
  expect(icc.lower, icc.form).toBeCloseTo(lower, 10);
  expect(icc.upper, icc.form).toBeCloseTo(upper, 10);
}

describe('intraclass correlation', () => {
  it('Shrout & Fleiss (1979), Table 2 (6 targets × 4 judges): ICC(1,1) = .17, ICC(2,1) = .29, ICC(3,1) = .71', () => {
    const table = [
      [9, 2, 5, 8],
      [6, 1, 3, 2],
      [8, 4, 6, 8],
      [7, 1, 2, 6],
      [10, 5, 6, 9],
      [6, 2, 4, 7],
    ];
    const icc = intraclassCorrelation(table);
    // The paper's two decimals, then the full values and intervals from an independent numpy/scipy
    // script of psych::ICC's formulas (Shrout & Fleiss's df for ICC(2,1)); psych prints the same
    // to two decimals: [-0.13, 0.72], [0.02, 0.76], [0.34, 0.95].
    expect(icc.oneWay.estimate).toBeCloseTo(0.17, 2);
    expect(icc.agreement.estimate).toBeCloseTo(0.29, 2);
    expect(icc.consistency.estimate).toBeCloseTo(0.71, 2);
    expect(icc.meanSquares.items).toBeCloseTo(11.241666666666669, 10);
    expect(icc.meanSquares.raters).toBeCloseTo(32.486111111111114, 10);
    expect(icc.meanSquares.error).toBeCloseTo(1.019444444444442, 10);
    expect(icc.meanSquares.within).toBeCloseTo(6.2638888888888875, 10);
    expect(icc.oneWay).toMatchObject({
      form: 'ICC(1,1)',
      df1: 5,
      df2: 18,
      method: 'f-distribution',
      level: 0.95,
    });
    expectBounds(icc.oneWay, [0.16574176840547553, -0.13293232487475096, 0.7225600623281211]);
    expect(icc.oneWay.p).toBeCloseTo(0.16476880834463953, 10);
    expectBounds(icc.agreement, [0.2897637795275592, 0.018786513374712027, 0.761084369648953]);
    expect(icc.consistency).toMatchObject({ form: 'ICC(3,1)', df1: 5, df2: 15 });
    expect(icc.consistency.f).toBeCloseTo(11.027247956403299, 10);
    expectBounds(icc.consistency, [0.7148407148407154, 0.34246476503392614, 0.9458582599553597]);
    expect(icc.consistency.p).toBeCloseTo(0.000134566516484335, 12);
  });

  it('judge vs human on ten items graded 1–5: a judge one point lenient loses agreement, not consistency', () => {
    // Rows [judge, human]; reference values from the same numpy/scipy script.
    const pairs = [
      [4, 3],
      [5, 4],
      [3, 3],
      [2, 1],
      [5, 5],
      [4, 2],
      [3, 2],
      [1, 1],
      [4, 4],
      [2, 2],
    ];
    const icc = intraclassCorrelation(pairs);
    expectBounds(icc.agreement, [0.7942857142857144, 0.21742711128729567, 0.9490109739649261]);
    expectBounds(icc.consistency, [0.8633540372670807, 0.5441158870076517, 0.9642217737015107]);
    // A 90% interval lies inside the 95% one.
    const narrower = intraclassCorrelation(pairs, { level: 0.9 });
    expect(narrower.agreement.lower).toBeGreaterThan(icc.agreement.lower);
    expect(narrower.agreement.upper).toBeLessThan(icc.agreement.upper);
  });

  it('refuses ragged tables, missing ratings and tables too small', () => {
    expect(() => intraclassCorrelation([[1, 2]])).toThrow(
      /at least 2 items rated by at least 2 raters, got 1 × 2/,
    );
    expect(() => intraclassCorrelation([[1, 2], [3]])).toThrow(/item 1 has 1 ratings/);
    expect(() =>
      intraclassCorrelation([
        [1, 2],
        [3, Number.NaN],
      ]),
    ).toThrow(/item 1 by rater 1 is not a finite number/);
  });
});
