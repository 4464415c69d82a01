/** Exact list equality with element types: the string "1" is not the number 1. */
export function listsEqual(predicted: unknown, gold: readonly unknown[]): boolean {
  if (!Array.isArray(predicted) || predicted.length !== gold.length) return false;
  return predicted.every((item, index) => Object.is(item, gold[index]));
}
