export interface PrecisionRecallF1 {
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Per-item precision, recall and F1 of a predicted set against a reference set. An empty
 * prediction has precision 0, an empty reference recall 0, and F1 is 0 when both are 0.
 */
export function setF1(predicted: ReadonlySet<string>, reference: ReadonlySet<string>): PrecisionRecallF1 {
  let hits = 0;
  for (const item of predicted) if (reference.has(item)) hits++;
  const precision = predicted.size === 0 ? 0 : hits / predicted.size;
  const recall = reference.size === 0 ? 0 : hits / reference.size;
  return {
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
  };
}

/** Arithmetic mean; 0 for an empty list. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
