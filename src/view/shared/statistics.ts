/** Small, seeded statistics for the viewer: bootstrap intervals and paired tests. */

/** mulberry32: a seeded generator so every interval is reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** A string's FNV-1a hash, to seed per-cell resampling from the cell's name. */
export function seedOf(text: string): number {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619);
  return hash >>> 0;
}

export interface Estimate {
  mean: number;
  n: number;
  /** 95% percentile-bootstrap interval (equal to the mean when n < 2). */
  low: number;
  high: number;
}

function percentile(sorted: Float64Array, fraction: number): number {
  const position = fraction * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

/**
 * For 0/1 scores the bootstrap distribution of the mean is exactly Binomial(n, p̂) / n, so its
 * 2.5% and 97.5% quantiles are computed from the binomial CDF: the limit of infinitely many
 * resamples, and cheap for the 15,000-sample cells of a full grid.
 */
export function binaryBootstrapInterval(ones: number, n: number): { low: number; high: number } {
  const p = ones / n;
  if (ones === 0 || ones === n) return { low: p, high: p };
  const logP = Math.log(p);
  const logQ = Math.log(1 - p);
  let logChooseK = 0;
  let cumulative = 0;
  let low = -1;
  let high = n;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logChooseK += Math.log(n - k + 1) - Math.log(k);
    cumulative += Math.exp(logChooseK + k * logP + (n - k) * logQ);
    if (low < 0 && cumulative >= 0.025) low = k;
    if (cumulative >= 0.975) {
      high = k;
      break;
    }
  }
  return { low: low / n, high: high / n };
}

/**
 * Mean with a 95% bootstrap interval: exact binomial quantiles for 0/1 scores, otherwise the
 * percentile interval of `resamples` seeded resamples.
 */
export function bootstrapMean(values: readonly number[], seed: number, resamples = 1000): Estimate {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, n: 0, low: Number.NaN, high: Number.NaN };
  const sum = values.reduce((total, value) => total + value, 0);
  const mean = sum / n;
  if (n < 2) return { mean, n, low: mean, high: mean };
  if (values.every((value) => value === 0 || value === 1))
    return { mean, n, ...binaryBootstrapInterval(sum, n) };
  const random = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let round = 0; round < resamples; round++) {
    let sum = 0;
    for (let draw = 0; draw < n; draw++) sum += values[Math.floor(random() * n)]!;
    means[round] = sum / n;
  }
  means.sort();
  return { mean, n, low: percentile(means, 0.025), high: percentile(means, 0.975) };
}

/** log of n choose k, for exact binomial tails. */
function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let index = 1; index <= k; index++) sum += Math.log(n - k + index) - Math.log(index);
  return sum;
}

/**
 * McNemar's exact test on paired accuracies: `onlyA` pairs right under A only, `onlyB` right
 * under B only; two-sided p = 2 · P(X ≤ min) for X ~ Binomial(onlyA + onlyB, 1/2), capped at 1.
 */
export function mcnemarExact(onlyA: number, onlyB: number): number {
  const discordant = onlyA + onlyB;
  if (discordant === 0) return 1;
  const smaller = Math.min(onlyA, onlyB);
  let tail = 0;
  for (let k = 0; k <= smaller; k++) tail += Math.exp(logChoose(discordant, k) - discordant * Math.LN2);
  return Math.min(1, 2 * tail);
}

/**
 * Paired bootstrap on per-sample differences: the mean difference, its 95% interval, and a
 * two-sided p-value (twice the share of resampled means on the far side of zero).
 */
export function pairedBootstrap(
  differences: readonly number[],
  seed: number,
  resamples = 2000,
): Estimate & { p: number } {
  const estimate = bootstrapMean(differences, seed, resamples);
  const n = differences.length;
  if (n < 2) return { ...estimate, p: 1 };
  const random = seededRandom(seed);
  let below = 0;
  let above = 0;
  for (let round = 0; round < resamples; round++) {
    let sum = 0;
    for (let draw = 0; draw < n; draw++) sum += differences[Math.floor(random() * n)]!;
    if (sum <= 0) below++;
    if (sum >= 0) above++;
  }
  return { ...estimate, p: Math.min(1, (2 * Math.min(below, above)) / resamples) };
}
