import { DEFAULT_LEVEL } from '../uncertainty/index.js';
import { fDistribution, fQuantile } from './f-distribution.js';

/** One intraclass correlation with its F-distribution interval (McGraw & Wong 1996, Table 7). */
export interface IccEstimate {
  /** Shrout & Fleiss's name; McGraw & Wong's: ICC(1) , ICC(A,1), ICC(C,1). */
  form: 'ICC(1,1)' | 'ICC(2,1)' | 'ICC(3,1)';
  estimate: number;
  lower: number;
  upper: number;
  level: number;
  method: 'f-distribution';
  /** The F statistic of the test that the ICC is 0, its degrees of freedom and one-sided p-value. */
  f: number;
  df1: number;
  df2: number;
  p: number;
}

/** Mean squares of the two-way ANOVA of an items × raters table (one rating per cell). */
export interface MeanSquares {
  /** Between items (rows): BMS, McGraw & Wong's MS_R. */
  items: number;
  /** Between raters (columns): JMS, MS_C. */
  raters: number;
  /** Residual: EMS, MS_E. */
  error: number;
  /** Within items (raters and residual pooled; the one-way model): WMS, MS_W. */
  within: number;
}

export interface IntraclassCorrelation {
  /** Items (targets, n) and raters (judges, k). */
  items: number;
  raters: number;
  meanSquares: MeanSquares;
  /** ICC(1,1): one-way random, each item rated by its own raters. */
  oneWay: IccEstimate;
  /** ICC(2,1) = ICC(A,1): two-way random, absolute agreement, single rater — judge and human interchangeable. */
  agreement: IccEstimate;
  /** ICC(3,1) = ICC(C,1): two-way mixed, consistency, single rater — a constant offset between raters forgiven. */
  consistency: IccEstimate;
}

/** The two-way ANOVA mean squares of a complete items × raters table. */
export function meanSquaresOf(ratings: ReadonlyArray<readonly number[]>): MeanSquares {
  const n = ratings.length;
  const k = ratings[0]?.length ?? 0;
  if (n < 2 || k < 2)
    throw new RangeError(`an ICC needs at least 2 items rated by at least 2 raters, got ${n} × ${k}`);
  ratings.forEach((row, item) => {
    if (row.length !== k)
      throw new RangeError(
        `item ${item} has ${row.length} ratings, the first item ${k}: every item needs one rating from every rater`,
      );
    row.forEach((value, rater) => {
      if (!Number.isFinite(value))
        throw new RangeError(`rating of item ${item} by rater ${rater} is not a finite number: ${value}`);
    });
  });
  const grand = ratings.flat().reduce((sum, value) => sum + value, 0) / (n * k);
  const rowMeans = ratings.map((row) => row.reduce((sum, value) => sum + value, 0) / k);
  const columnMeans = Array.from(
    { length: k },
    (_, rater) => ratings.reduce((sum, row) => sum + row[rater]!, 0) / n,
  );
  const total = ratings.flat().reduce((sum, value) => sum + (value - grand) ** 2, 0);
  const betweenItems = k * rowMeans.reduce((sum, mean) => sum + (mean - grand) ** 2, 0);
  const betweenRaters = n * columnMeans.reduce((sum, mean) => sum + (mean - grand) ** 2, 0);
  const residual = total - betweenItems - betweenRaters;
  return {
    items: betweenItems / (n - 1),
    raters: betweenRaters / (k - 1),
    error: residual / ((n - 1) * (k - 1)),
    within: (total - betweenItems) / (n * (k - 1)),
  };
}

interface FTest {
  f: number;
  df1: number;
  df2: number;
}

/**
 * An ICC whose interval comes from its F ratio's bounds (cases 1 and 3 of McGraw & Wong):
 * F_L = F / F₁₋α/₂(df1, df2), F_U = F · F₁₋α/₂(df2, df1), bounds (F − 1)/(F + k − 1).
 */
function ratioEstimate(form: IccEstimate['form'], estimate: number, test: FTest, k: number, level: number) {
  const tail = (1 + level) / 2;
  const fromRatio = (ratio: number) => (ratio - 1) / (ratio + k - 1);
  const bounds = {
    lower: fromRatio(test.f / fQuantile(tail, test.df1, test.df2)),
    upper: fromRatio(test.f * fQuantile(tail, test.df2, test.df1)),
  };
  return estimateOf(form, estimate, bounds, test, level);
}

function estimateOf(
  form: IccEstimate['form'],
  estimate: number,
  bounds: { lower: number; upper: number },
  test: FTest,
  level: number,
): IccEstimate {
  return {
    form,
    estimate,
    ...bounds,
    level,
    method: 'f-distribution',
    ...test,
    p: fDistribution(test.f, test.df1, test.df2).survival,
  };
}

/**
 * ICC(2,1)'s interval (McGraw & Wong 1996, Table 7, case 2A): F bounds at Satterthwaite's
 * degrees of freedom v for the combination a·MS_C + b·MS_E that estimates the denominator.
 */
function agreementBounds(squares: MeanSquares, icc: number, n: number, k: number, level: number) {
  const { items: rows, raters: columns, error } = squares;
  const a = (k * icc) / (n * (1 - icc));
  const b = 1 + (k * icc * (n - 1)) / (n * (1 - icc));
  const v =
    (a * columns + b * error) ** 2 / ((a * columns) ** 2 / (k - 1) + (b * error) ** 2 / ((n - 1) * (k - 1)));
  const tail = (1 + level) / 2;
  const fLower = fQuantile(tail, n - 1, v);
  const fUpper = fQuantile(tail, v, n - 1);
  const spread = k * columns + (k * n - k - n) * error;
  return {
    lower: (n * (rows - fLower * error)) / (fLower * spread + n * rows),
    upper: (n * (fUpper * rows - error)) / (spread + n * fUpper * rows),
  };
}

/**
 * Shrout & Fleiss (1979) ICC(1,1), ICC(2,1) and ICC(3,1) of an items × raters table (each row one
 * item, each column one rater — for judge vs human, rows [judge, human]), with the exact or
 * approximate F-distribution intervals of McGraw & Wong (1996) at `level` (default 0.95).
 */
export function intraclassCorrelation(
  ratings: ReadonlyArray<readonly number[]>,
  options: { level?: number } = {},
): IntraclassCorrelation {
  const level = options.level ?? DEFAULT_LEVEL;
  if (!(level > 0 && level < 1))
    throw new RangeError(`confidence level must lie strictly between 0 and 1, got ${level}`);
  const squares = meanSquaresOf(ratings);
  const n = ratings.length;
  const k = ratings[0]!.length;
  const { items: rows, raters: columns, error, within } = squares;
  const oneWayTest = { f: rows / within, df1: n - 1, df2: n * (k - 1) };
  const twoWayTest = { f: rows / error, df1: n - 1, df2: (n - 1) * (k - 1) };
  const agreement = (rows - error) / (rows + (k - 1) * error + (k * (columns - error)) / n);
  return {
    items: n,
    raters: k,
    meanSquares: squares,
    oneWay: ratioEstimate('ICC(1,1)', (rows - within) / (rows + (k - 1) * within), oneWayTest, k, level),
    agreement: estimateOf(
      'ICC(2,1)',
      agreement,
      agreementBounds(squares, agreement, n, k, level),
      twoWayTest,
      level,
    ),
    consistency: ratioEstimate('ICC(3,1)', (rows - error) / (rows + (k - 1) * error), twoWayTest, k, level),
  };
}
