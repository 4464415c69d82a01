import type { PrecisionRecallF1 } from './set-f1.js';

/** CLUE's code pattern: a letter other than U, two digits, then an optional (dotted) extension. */
const ICD10_PATTERN = /\b[A-TV-Z][0-9]{2}(?:\.?[0-9A-Z]{1,4})?\b/g;

/** Every ICD-10 code written in `text`, in order, with dots removed (MIMIC writes codes without dots). */
export function extractIcd10Codes(text: string): string[] {
  return [...text.matchAll(ICD10_PATTERN)].map((match) => match[0].replaceAll('.', ''));
}

/** P/R/F1 the way the CLUE scripts' `compute_icd_f1` counts: over lists, so repeats count on each side. */
function listF1(predicted: readonly string[], reference: readonly string[]): PrecisionRecallF1 {
  const gold = new Set(reference);
  const found = new Set(predicted);
  const precision =
    predicted.length === 0 ? 0 : predicted.filter((code) => gold.has(code)).length / predicted.length;
  const recall =
    reference.length === 0 ? 0 : reference.filter((code) => found.has(code)).length / reference.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/**
 * Exact match as CLUE's scripts compute it: predicted codes (dots removed) against the gold list
 * as written, both as lists, so a code predicted twice counts twice in the precision.
 */
export function icd10ExactMatch(
  predicted: readonly string[],
  reference: readonly string[],
): PrecisionRecallF1 {
  return listF1(predicted, reference);
}

/** Approximate match: the sets of the codes' first three characters (their category). */
export function icd10ApproximateMatch(
  predicted: readonly string[],
  reference: readonly string[],
): PrecisionRecallF1 {
  const categories = (codes: readonly string[]) => [...new Set(codes.map((code) => code.slice(0, 3)))];
  return listF1(categories(predicted), categories(reference));
}

/** Share of an item's predicted codes that exist in the code table; 0 when it predicted none. */
export function validCodeRate(predicted: readonly string[], table: ReadonlySet<string>): number {
  if (predicted.length === 0) return 0;
  return predicted.filter((code) => table.has(code)).length / predicted.length;
}
