/** Precision, recall and F1 of BERTScore for one candidate against one reference. */
export interface BertScore {
  precision: number;
  recall: number;
  f1: number;
}

function norm(vector: readonly number[]): number {
  let sum = 0;
  for (const value of vector) sum += value * value;
  return Math.sqrt(sum);
}

/**
 * BERTScore from contextual token embeddings (special tokens already removed): each
 * candidate token is matched to its most similar reference token by cosine similarity
 * (precision is the mean of those maxima), each reference token to its most similar
 * candidate token (recall), F1 their harmonic mean. No idf weighting and no baseline
 * rescaling, as CLUE's spec says. Empty sides score 0.
 */
export function bertScoreFromEmbeddings(
  candidate: ReadonlyArray<readonly number[]>,
  reference: ReadonlyArray<readonly number[]>,
): BertScore {
  if (candidate.length === 0 || reference.length === 0) return { precision: 0, recall: 0, f1: 0 };
  const unit = (vectors: ReadonlyArray<readonly number[]>) =>
    vectors.map((vector) => {
      const length = norm(vector) || 1;
      return vector.map((value) => value / length);
    });
  const left = unit(candidate);
  const right = unit(reference);
  const similarity = left.map((a) =>
    right.map((b) => a.reduce((sum, value, index) => sum + value * b[index]!, 0)),
  );
  const precision = similarity.reduce((sum, row) => sum + Math.max(...row), 0) / left.length;
  const recall =
    right.reduce((sum, _, column) => sum + Math.max(...similarity.map((row) => row[column]!)), 0) /
    right.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** A text's token vectors (special tokens included) and where its own tokens lie among them. */
export interface TokenVectors {
  vectors: ReadonlyArray<ArrayLike<number>>;
  start: number;
  end: number;
}

function unitVectors(vectors: ReadonlyArray<ArrayLike<number>>): Float64Array[] {
  return vectors.map((vector) => {
    let sum = 0;
    for (let index = 0; index < vector.length; index++) sum += vector[index]! * vector[index]!;
    const length = Math.sqrt(sum) || 1;
    return Float64Array.from(vector as ArrayLike<number>, (value) => value / length);
  });
}

/**
 * BERTScore as the reference implementation (bert_score, idf off) computes it: every token of
 * the other side, special tokens included, may be the best match, but only a text's own tokens
 * ([start, end)) are averaged — [CLS] and [SEP] have weight 0. Empty sides score 0.
 */
export function bertScoreFromTokens(candidate: TokenVectors, reference: TokenVectors): BertScore {
  if (candidate.end <= candidate.start || reference.end <= reference.start)
    return { precision: 0, recall: 0, f1: 0 };
  const left = unitVectors(candidate.vectors);
  const right = unitVectors(reference.vectors);
  const dot = (a: Float64Array, b: Float64Array) => {
    let sum = 0;
    for (let index = 0; index < a.length; index++) sum += a[index]! * b[index]!;
    return sum;
  };
  const best = (from: Float64Array[], start: number, end: number, to: Float64Array[]) => {
    let total = 0;
    for (let index = start; index < end; index++) {
      let max = Number.NEGATIVE_INFINITY;
      for (const other of to) max = Math.max(max, dot(from[index]!, other));
      total += max;
    }
    return total / (end - start);
  };
  const precision = best(left, candidate.start, candidate.end, right);
  const recall = best(right, reference.start, reference.end, left);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
