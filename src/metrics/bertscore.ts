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

/** Every vector scaled to unit length, in float64, packed row after row. */
function unitRows(vectors: ReadonlyArray<ArrayLike<number>>, hidden: number): Float64Array {
  const rows = new Float64Array(vectors.length * hidden);
  vectors.forEach((vector, row) => {
    let sum = 0;
    for (let index = 0; index < hidden; index++) sum += vector[index]! * vector[index]!;
    const length = Math.sqrt(sum) || 1;
    for (let index = 0; index < hidden; index++) rows[row * hidden + index] = vector[index]! / length;
  });
  return rows;
}

/**
 * BERTScore as the reference implementation (bert_score, idf off) computes it: every token of
 * the other side, special tokens included, may be the best match, but only a text's own tokens
 * ([start, end)) are averaged — [CLS] and [SEP] have weight 0. Empty sides score 0. Each
 * cosine is computed once and serves both directions (a·b and b·a are the same products summed
 * in the same order, so the result is what two passes gave, to the last bit).
 */
export function bertScoreFromTokens(candidate: TokenVectors, reference: TokenVectors): BertScore {
  if (candidate.end <= candidate.start || reference.end <= reference.start)
    return { precision: 0, recall: 0, f1: 0 };
  const hidden = candidate.vectors[0]!.length;
  const left = unitRows(candidate.vectors, hidden);
  const right = unitRows(reference.vectors, hidden);
  const leftRows = candidate.vectors.length;
  const rightRows = reference.vectors.length;
  // Best match of each candidate row (over every reference row) and of each reference row.
  const rowBest = new Float64Array(leftRows).fill(Number.NEGATIVE_INFINITY);
  const columnBest = new Float64Array(rightRows).fill(Number.NEGATIVE_INFINITY);
  const keep = (row: number, column: number, sum: number) => {
    if (sum > rowBest[row]!) rowBest[row] = sum;
    if (sum > columnBest[column]!) columnBest[column] = sum;
  };
  // Four candidate rows against one reference row at a time: each reference row is read once per
  // four (memory, not arithmetic, bounds this loop); every sum still runs in index order.
  let row = 0;
  for (; row + 4 <= leftRows; row += 4) {
    const a0 = row * hidden;
    const a1 = a0 + hidden;
    const a2 = a1 + hidden;
    const a3 = a2 + hidden;
    for (let column = 0; column < rightRows; column++) {
      const b = column * hidden;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let index = 0; index < hidden; index++) {
        const value = right[b + index]!;
        s0 += left[a0 + index]! * value;
        s1 += left[a1 + index]! * value;
        s2 += left[a2 + index]! * value;
        s3 += left[a3 + index]! * value;
      }
      keep(row, column, s0);
      keep(row + 1, column, s1);
      keep(row + 2, column, s2);
      keep(row + 3, column, s3);
    }
  }
  for (; row < leftRows; row++) {
    const a = row * hidden;
    for (let column = 0; column < rightRows; column++) {
      const b = column * hidden;
      let sum = 0;
      for (let index = 0; index < hidden; index++) sum += left[a + index]! * right[b + index]!;
      keep(row, column, sum);
    }
  }
  const mean = (best: Float64Array, start: number, end: number) => {
    let total = 0;
    for (let index = start; index < end; index++) total += best[index]!;
    return total / (end - start);
  };
  const precision = mean(rowBest, candidate.start, candidate.end);
  const recall = mean(columnBest, reference.start, reference.end);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
