/**
 * MTEB's retrieval metrics as pytrec_eval (trec_eval 9) computes them for `ndcg_cut_k`,
 * `map_cut_k` and `recall_k`, with its default relevance level 1. Each takes one query's ranking
 * as the relevance grade of each ranked item, in rank order (0: not relevant or not judged), and
 * the query's judgements: every relevant grade in the qrels, retrieved or not.
 *
 * The ranking is the caller's: medbench ranks once with its own tie rule (`ranksBefore`,
 * corpus order). pytrec_eval sorts a run again by score and breaks ties by document id,
 * descending (`trecEvalOrder`); docs/medeureka.md says where the two part.
 */

/** nDCG@k (`ndcg_cut_k`): gains are the grades themselves (not 2^g − 1), rank r discounted by log2(r + 1). */
export function ndcgAtK(grades: readonly number[], judged: readonly number[], k: number): number {
  let dcg = 0;
  for (let index = 0; index < Math.min(k, grades.length); index++) {
    const gain = grades[index]!;
    if (gain > 0) dcg += gain / Math.log2(index + 2);
  }
  const ideal = judged
    .filter((grade) => grade > 0)
    .sort((left, right) => right - left)
    .slice(0, k)
    .reduce((sum, gain, index) => sum + gain / Math.log2(index + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

/** How many of the judgements are relevant (grade ≥ 1, pytrec_eval's default relevance level). */
export function relevantCount(judged: readonly number[]): number {
  return judged.filter((grade) => grade >= 1).length;
}

/**
 * AP@k (`map_cut_k`): the precision at each relevant rank within k, summed, divided by every
 * relevant judgement of the query (not by min(k, relevant)): a query with more relevant items
 * than k cannot reach 1.
 */
export function averagePrecisionAtK(grades: readonly number[], relevant: number, k: number): number {
  if (relevant === 0) return 0;
  let found = 0;
  let sum = 0;
  for (let index = 0; index < Math.min(k, grades.length); index++) {
    if (grades[index]! < 1) continue;
    found++;
    sum += found / (index + 1);
  }
  return sum / relevant;
}

/** Recall@k (`recall_k`): relevant items within k over every relevant judgement of the query. */
export function recallAtK(grades: readonly number[], relevant: number, k: number): number {
  if (relevant === 0) return 0;
  return grades.slice(0, k).filter((grade) => grade >= 1).length / relevant;
}

const utf8 = new TextEncoder();

/** C's strcmp on the UTF-8 bytes, as trec_eval compares document ids. */
function compareBytes(left: string, right: string): number {
  const a = utf8.encode(left);
  const b = utf8.encode(right);
  for (let index = 0; index < Math.min(a.length, b.length); index++)
    if (a[index] !== b[index]) return a[index]! - b[index]!;
  return a.length - b.length;
}

/**
 * The order pytrec_eval evaluates a run in: higher score first, ties by document id descending
 * (trec_eval's `comp_sim_docno`). Returns positions into `ids`.
 */
export function trecEvalOrder(ids: readonly string[], scores: readonly number[]): number[] {
  return ids
    .map((_, position) => position)
    .sort(
      (left, right) =>
        scores[right]! - scores[left]! || compareBytes(ids[right]!, ids[left]!) || left - right,
    );
}
