import { RETRIEVAL_CUTOFFS } from '../../metrics/retrieval.js';
import { averagePrecisionAtK, ndcgAtK, recallAtK } from '../../metrics/trec-retrieval.js';

/** How often each text occurs in a corpus: a query's relevant items are every copy of a target text. */
export function corpusTextCounts(corpus: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of corpus) counts.set(text, (counts.get(text) ?? 0) + 1);
  return counts;
}

/**
 * MTEB's nDCG@n, MAP@n and Recall@n (`ndcg@n`, `map@n`, `recall@n`, fractions) of one query, with
 * MedEureka's relevance: binary, judged by text, so the qrels are every corpus item whose text is
 * a target (a duplicated text counts each time, as for MRR@n). The ranking is medbench's top 500.
 */
export function mtebQueryScores(
  rankedTexts: readonly string[],
  targets: readonly string[],
  counts: ReadonlyMap<string, number>,
): Record<string, number> {
  const wanted = new Set(targets);
  const grades = rankedTexts.map((text) => (wanted.has(text) ? 1 : 0));
  const relevant = [...wanted].reduce((sum, text) => sum + (counts.get(text) ?? 0), 0);
  const judged = new Array<number>(relevant).fill(1);
  const scores: Record<string, number> = {};
  for (const n of RETRIEVAL_CUTOFFS) {
    scores[`ndcg@${n}`] = ndcgAtK(grades, judged, n);
    scores[`map@${n}`] = averagePrecisionAtK(grades, relevant, n);
    scores[`recall@${n}`] = recallAtK(grades, relevant, n);
  }
  return scores;
}
