/** ROUGE precision, recall and F-measure of one prediction against one reference. */
export interface RougeScore {
  precision: number;
  recall: number;
  f: number;
}

/**
 * Tokenises like Google's rouge_score default tokenizer: lower-case, every run of
 * characters outside a–z and 0–9 separates tokens, no stemming.
 */
export function rougeTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((token) => token.length > 0);
}

function fMeasure(overlap: number, predictionCount: number, referenceCount: number): RougeScore {
  const precision = predictionCount === 0 ? 0 : overlap / predictionCount;
  const recall = referenceCount === 0 ? 0 : overlap / referenceCount;
  const f = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f };
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let index = 0; index + n <= tokens.length; index++) {
    const gram = n === 1 ? tokens[index]! : tokens.slice(index, index + n).join(' ');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

/** ROUGE-N on token lists: clipped n-gram overlap. */
export function rougeNTokens(
  prediction: readonly string[],
  reference: readonly string[],
  n: number,
): RougeScore {
  const predicted = ngramCounts(prediction, n);
  const expected = ngramCounts(reference, n);
  let overlap = 0;
  for (const [gram, count] of predicted) overlap += Math.min(count, expected.get(gram) ?? 0);
  return fMeasure(overlap, Math.max(0, prediction.length - n + 1), Math.max(0, reference.length - n + 1));
}

/** Length of the longest common subsequence (two rows of the dynamic programme). */
export function lcsLength(left: readonly string[], right: readonly string[]): number {
  if (left.length === 0 || right.length === 0) return 0;
  const [outer, inner] = left.length >= right.length ? [left, right] : [right, left];
  let previous = new Uint32Array(inner.length + 1);
  let current = new Uint32Array(inner.length + 1);
  for (let row = 1; row <= outer.length; row++) {
    const token = outer[row - 1];
    for (let column = 1; column <= inner.length; column++) {
      current[column] =
        token === inner[column - 1]
          ? previous[column - 1]! + 1
          : Math.max(previous[column]!, current[column - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return previous[inner.length]!;
}

/** Sentence-level ROUGE-L on token lists. */
export function rougeLTokens(prediction: readonly string[], reference: readonly string[]): RougeScore {
  return fMeasure(lcsLength(prediction, reference), prediction.length, reference.length);
}

/** ROUGE-1, ROUGE-2 and ROUGE-L of one prediction, tokenised once. */
export function rouge(
  prediction: string,
  reference: string,
): { rouge1: RougeScore; rouge2: RougeScore; rougeL: RougeScore } {
  const predicted = rougeTokens(prediction);
  const expected = rougeTokens(reference);
  return {
    rouge1: rougeNTokens(predicted, expected, 1),
    rouge2: rougeNTokens(predicted, expected, 2),
    rougeL: rougeLTokens(predicted, expected),
  };
}
