/** The cut-offs MedEureka reports. */
export const RETRIEVAL_CUTOFFS = [1, 5, 10, 20, 50, 100, 200, 500] as const;

/**
 * Where a query's targets appear in a ranking, judged by text (the official toolkit compares
 * strings, so duplicated corpus texts both count). Ranks are 1-based; null = not in the ranking.
 */
export function targetRanks(
  rankedTexts: readonly string[],
  targets: readonly string[],
): {
  /** Rank of the first relevant item. */
  first: number | null;
  /** Rank by which every target has appeared. */
  all: number | null;
} {
  const wanted = new Set(targets);
  const seen = new Set<string>();
  let first: number | null = null;
  for (let index = 0; index < rankedTexts.length; index++) {
    const text = rankedTexts[index]!;
    if (!wanted.has(text)) continue;
    first ??= index + 1;
    seen.add(text);
    if (seen.size === wanted.size) return { first, all: index + 1 };
  }
  return { first, all: null };
}

/** Exact HR@n of one query: 1 iff every target is within the top n. */
export function exactHit(ranks: { all: number | null }, n: number): number {
  return ranks.all !== null && ranks.all <= n ? 1 : 0;
}

/** Reciprocal rank @n of one query: 1 / rank of the first relevant item if it is within n, else 0. */
export function reciprocalRank(ranks: { first: number | null }, n: number): number {
  return ranks.first !== null && ranks.first <= n ? 1 / ranks.first : 0;
}
