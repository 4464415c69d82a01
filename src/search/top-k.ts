import type { RankedList } from '../core/retriever.js';

/**
 * The one tie rule of every ranking medbench makes: a higher score first, and between equal
 * scores the lower corpus index (corpus order), as the papers' exact search does.
 */
export function ranksBefore(score: number, index: number, otherScore: number, otherIndex: number): boolean {
  return score > otherScore || (score === otherScore && index < otherIndex);
}

/**
 * The `k` best of `scores` (see `ranksBefore`) without sorting all of them: a bounded insertion
 * into a small sorted buffer.
 */
export function topK(scores: ArrayLike<number>, k: number): RankedList {
  const limit = Math.min(k, scores.length);
  const indexes: number[] = [];
  const values: number[] = [];
  for (let index = 0; index < scores.length; index++) {
    const score = scores[index]!;
    if (indexes.length === limit && !ranksBefore(score, index, values[limit - 1]!, indexes[limit - 1]!))
      continue;
    let position = indexes.length === limit ? limit - 1 : indexes.length;
    while (position > 0 && ranksBefore(score, index, values[position - 1]!, indexes[position - 1]!)) {
      if (position < limit) {
        values[position] = values[position - 1]!;
        indexes[position] = indexes[position - 1]!;
      }
      position--;
    }
    values[position] = score;
    indexes[position] = index;
  }
  return { indexes: indexes.slice(0, limit), scores: values.slice(0, limit) };
}

/**
 * The `k` best when only `candidates` (the first `count` entries) can score above 0 and every
 * other document scores 0 (a sparse retriever's touched documents): the same ranking `topK` gives
 * over the whole array, without reading it. Untouched documents follow in corpus order.
 */
export function topKAmong(
  scores: ArrayLike<number>,
  candidates: ArrayLike<number>,
  count: number,
  k: number,
): RankedList {
  const order = Array.from({ length: count }, (_, position) => candidates[position]!);
  order.sort((left, right) => (ranksBefore(scores[left]!, left, scores[right]!, right) ? -1 : 1));
  const indexes = order.slice(0, k);
  const result = { indexes, scores: indexes.map((index) => scores[index]!) };
  if (indexes.length < k) {
    const taken = new Set(indexes);
    for (let document = 0; document < scores.length && result.indexes.length < k; document++) {
      if (taken.has(document)) continue;
      result.indexes.push(document);
      result.scores.push(0);
    }
  }
  return result;
}
