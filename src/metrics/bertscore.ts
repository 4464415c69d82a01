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
