import { type PrecisionRecallF1, setF1 } from './set-f1.js';

/** CLUE's code pattern: a letter other than U, two digits, then an optional (dotted) extension. */
const ICD10_PATTERN = /\b[A-TV-Z][0-9]{2}(?:\.?[0-9A-Z]{1,4})?\b/g;

/** Every ICD-10 code written in `text`, in order, with dots removed (MIMIC writes codes without dots). */
export function extractIcd10Codes(text: string): string[] {
  return [...text.matchAll(ICD10_PATTERN)].map((match) => match[0].replaceAll('.', ''));
}

/** Exact-match P/R/F1 of code sets. */
export function icd10ExactMatch(
  predicted: readonly string[],
  reference: readonly string[],
): PrecisionRecallF1 {
  return setF1(new Set(predicted), new Set(reference.map((code) => code.replaceAll('.', ''))));
}

/** Approximate-match P/R/F1: sets of the codes' first three characters (their category). */
export function icd10ApproximateMatch(
  predicted: readonly string[],
  reference: readonly string[],
): PrecisionRecallF1 {
  const category = (code: string) => code.replaceAll('.', '').slice(0, 3);
  return setF1(new Set(predicted.map(category)), new Set(reference.map(category)));
}

/** Share of an item's predicted codes that exist in the code table; 0 when it predicted none. */
export function validCodeRate(predicted: readonly string[], table: ReadonlySet<string>): number {
  if (predicted.length === 0) return 0;
  return predicted.filter((code) => table.has(code)).length / predicted.length;
}
