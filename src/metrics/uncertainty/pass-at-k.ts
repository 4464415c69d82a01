/**
 * The unbiased pass@k estimator (Chen et al., 2021) from n attempts of which c passed:
 * 1 − C(n − c, k) / C(n, k), computed as 1 − Π_{i = n−c+1}^{n} (1 − k / i) to stay stable for large n.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (
    !(Number.isInteger(n) && Number.isInteger(c) && Number.isInteger(k)) ||
    c < 0 ||
    c > n ||
    k < 1 ||
    k > n
  )
    throw new RangeError(`pass@k needs integers 0 ≤ c ≤ n and 1 ≤ k ≤ n, got n=${n} c=${c} k=${k}`);
  if (n - c < k) return 1;
  let failAll = 1;
  for (let i = n - c + 1; i <= n; i++) failAll *= 1 - k / i;
  return 1 - failAll;
}

/** How the scores of one sample's K epochs become its score. */
export type EpochReducer = 'mean' | 'majority' | 'max' | { passAt: number };

/**
 * One sample's score from its epochs: `mean`; `majority`, the most frequent score (ties: the
 * lowest of the tied, so a tie never flatters); `max`; `{ passAt: k }`, the unbiased pass@k where
 * an epoch passes when its score is 1.
 */
export function reduceEpochs(scores: readonly number[], reducer: EpochReducer): number {
  if (scores.length === 0) throw new RangeError('no epochs to reduce');
  if (reducer === 'mean') return scores.reduce((sum, score) => sum + score, 0) / scores.length;
  if (reducer === 'max') return Math.max(...scores);
  if (reducer === 'majority') {
    const counts = new Map<number, number>();
    for (const score of scores) counts.set(score, (counts.get(score) ?? 0) + 1);
    let best = Number.NaN;
    let bestCount = 0;
    for (const [score, count] of counts)
      if (count > bestCount || (count === bestCount && score < best)) {
        best = score;
        bestCount = count;
      }
    return best;
  }
  return passAtK(scores.length, scores.filter((score) => score === 1).length, reducer.passAt);
}
