import type { RankedList } from '../core/retriever.js';

/**
 * The `k` best of `scores` (descending; ties by lower index first) without sorting all of
 * them: a bounded insertion into a small sorted buffer.
 */
export function topK(scores: ArrayLike<number>, k: number): RankedList {
  const limit = Math.min(k, scores.length);
  const indexes: number[] = [];
  const values: number[] = [];
  for (let index = 0; index < scores.length; index++) {
    const score = scores[index]!;
    if (indexes.length === limit && score <= values[limit - 1]!) continue;
    let position = indexes.length === limit ? limit - 1 : indexes.length;
    while (position > 0 && values[position - 1]! < score) {
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

/** L2-normalises a vector in place; a zero vector stays zero. */
export function normalize(vector: Float64Array): Float64Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const length = Math.sqrt(sum);
  if (length > 0) for (let index = 0; index < vector.length; index++) vector[index]! /= length;
  return vector;
}

/** Exact cosine search: normalised query vectors against normalised corpus vectors, top k each. */
export function exactCosineSearch(
  queries: readonly Float64Array[],
  corpus: readonly Float64Array[],
  k: number,
): RankedList[] {
  const scores = new Float64Array(corpus.length);
  return queries.map((query) => {
    for (let index = 0; index < corpus.length; index++) {
      const document = corpus[index]!;
      let dot = 0;
      for (let dimension = 0; dimension < query.length; dimension++)
        dot += query[dimension]! * document[dimension]!;
      scores[index] = dot;
    }
    return topK(scores, k);
  });
}
