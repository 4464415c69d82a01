/**
 * The F distribution's CDF and quantile, for the ICC intervals of McGraw & Wong (1996): the
 * regularized incomplete beta function by its continued fraction (Numerical Recipes §6.4, modified
 * Lentz), ln Γ by Lanczos (g = 7, 9 terms), and the quantile by bisection on ln F. Degrees of
 * freedom may be fractional (Satterthwaite's v).
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, relative error ≈ 1e-15). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const shifted = x - 1;
  let sum = LANCZOS[0]!;
  for (let term = 1; term < LANCZOS.length; term++) sum += LANCZOS[term]! / (shifted + term);
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum);
}

const TINY = 1e-300;

/** The continued fraction of I_x(a, b) (converges fast for x < (a + 1)/(a + b + 2)). */
function betaFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < TINY ? TINY : d);
  let fraction = d;
  for (let m = 1; m <= 1000; m++) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + even * d;
    c = 1 + even / c;
    d = 1 / (Math.abs(d) < TINY ? TINY : d);
    fraction *= d * (Math.abs(c) < TINY ? TINY : c);
    const odd = (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + odd * d;
    c = 1 + odd / c;
    d = 1 / (Math.abs(d) < TINY ? TINY : d);
    const step = d * (Math.abs(c) < TINY ? TINY : c);
    fraction *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return fraction;
}

/**
 * The regularized incomplete beta I_x(a, b) and its complement 1 − I_x(a, b), with x and
 * y = 1 − x given separately so neither tail loses precision to cancellation.
 */
function regularizedBeta(x: number, y: number, a: number, b: number): { lower: number; upper: number } {
  if (x <= 0) return { lower: 0, upper: 1 };
  if (y <= 0) return { lower: 1, upper: 0 };
  const front = Math.exp(a * Math.log(x) + b * Math.log(y) - (logGamma(a) + logGamma(b) - logGamma(a + b)));
  if (x < (a + 1) / (a + b + 2)) {
    const lower = (front * betaFraction(x, a, b)) / a;
    return { lower, upper: 1 - lower };
  }
  const upper = (front * betaFraction(y, b, a)) / b;
  return { lower: 1 - upper, upper };
}

function checkDegrees(df1: number, df2: number): void {
  if (!(df1 > 0 && df2 > 0 && Number.isFinite(df1) && Number.isFinite(df2)))
    throw new RangeError(
      `F distribution degrees of freedom must be positive and finite, got ${df1} and ${df2}`,
    );
}

/** P(F ≤ value) and P(F > value) for F ~ F(df1, df2). */
export function fDistribution(value: number, df1: number, df2: number): { cdf: number; survival: number } {
  checkDegrees(df1, df2);
  if (!(value > 0)) return { cdf: 0, survival: 1 };
  if (value === Number.POSITIVE_INFINITY) return { cdf: 1, survival: 0 };
  const scale = df1 * value + df2;
  const { lower, upper } = regularizedBeta((df1 * value) / scale, df2 / scale, df1 / 2, df2 / 2);
  return { cdf: lower, survival: upper };
}

/** The p-quantile of F(df1, df2): the F with P(F ≤ F) = p, by bisection on ln F to double precision. */
export function fQuantile(p: number, df1: number, df2: number): number {
  checkDegrees(df1, df2);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`a quantile's probability must lie in [0, 1], got ${p}`);
  if (p === 0) return 0;
  if (p === 1) return Number.POSITIVE_INFINITY;
  // Compare in the tail the probability is small in, so p = 0.9999 keeps its digits.
  const below = (logF: number) => {
    const { cdf, survival } = fDistribution(Math.exp(logF), df1, df2);
    return p < 0.5 ? cdf < p : survival > 1 - p;
  };
  let low = -80;
  let high = 80;
  for (let step = 0; step < 200 && high - low > 1e-15 * Math.max(1, Math.abs(low)); step++) {
    const middle = (low + high) / 2;
    if (below(middle)) low = middle;
    else high = middle;
  }
  return Math.exp((low + high) / 2);
}
