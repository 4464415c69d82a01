/** Outcome of extracting a model's JSON answer: failure is data, not an exception. */
export type JsonAnswer = { wellFormed: true; value: unknown } | { wellFormed: false };

const FLAT_OBJECT = /\{[^{}]*\}/g;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every flat `{…}` span (no nested braces) of `text` that parses as a JSON object. */
export function findFlatJsonObjects(text: string): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = [];
  for (const match of text.matchAll(FLAT_OBJECT)) {
    try {
      const value: unknown = JSON.parse(match[0]);
      if (isPlainObject(value)) objects.push(value);
    } catch {
      // Not JSON: the span is ignored, as the spec says.
    }
  }
  return objects;
}

/**
 * The spec's answer extraction: drop ```json and ``` fences, find every flat JSON object,
 * keep those holding one of `keys`. Well-formed iff exactly one remains; its value (the
 * first of `keys` it holds) is the answer.
 */
export function extractJsonAnswer(rawOutput: string, keys: readonly string[]): JsonAnswer {
  const text = rawOutput.replaceAll('```json', '').replaceAll('```', '');
  const candidates = findFlatJsonObjects(text).filter((object) =>
    keys.some((key) => Object.hasOwn(object, key)),
  );
  if (candidates.length !== 1) return { wellFormed: false };
  const object = candidates[0]!;
  const key = keys.find((name) => Object.hasOwn(object, name))!;
  return { wellFormed: true, value: object[key] };
}
