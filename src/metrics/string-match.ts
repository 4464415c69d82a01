/** Removes the ASCII space U+0020 only; tabs, newlines and other spaces stay. */
export function removeAsciiSpaces(text: string): string {
  return text.replaceAll(' ', '');
}

/** Unicode default lower-casing. */
export function lowerCase(text: string): string {
  return text.toLowerCase();
}

function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const text = String(value);
  if (/e/.test(text)) return text.replace(/e([+-])(\d)$/, 'e$10$2');
  return text;
}

/**
 * Python's `str()` of a parsed JSON value, as the published scorer compared answers
 * (True/False/None, list and dict reprs). JSON numbers reach us without their written
 * form, so 15.0 reads as 15: a documented limit of compat mode.
 */
export function pythonString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloat(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`).join(', ')}}`;
}

function pythonRepr(value: unknown): string {
  if (typeof value === 'string') {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const escaped = value
      .replaceAll('\\', '\\\\')
      .replaceAll('\n', '\\n')
      .replaceAll('\r', '\\r')
      .replaceAll('\t', '\\t');
    return quote + (quote === "'" ? escaped.replaceAll("'", "\\'") : escaped) + quote;
  }
  return pythonString(value);
}

/** medbench's string form of an answer: strings as they are, numbers as written, empty for none. */
export function answerString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The first of `accepted` that `candidate` equals after `normalize` (undefined: none). */
export function firstMatch(
  candidate: string,
  accepted: readonly string[],
  normalize: (text: string) => string,
): string | undefined {
  const normalized = normalize(candidate);
  return accepted.find((answer) => normalize(answer) === normalized);
}

/** The first of `accepted` that, normalised, is a substring of `text`, normalised (undefined: none). */
export function firstContained(
  text: string,
  accepted: readonly string[],
  normalize: (text: string) => string,
): string | undefined {
  const normalized = normalize(text);
  return accepted.find((answer) => normalized.includes(normalize(answer)));
}

/** True iff `candidate` equals one of `accepted` after `normalize`. */
export function matchesAny(
  candidate: string,
  accepted: readonly string[],
  normalize: (text: string) => string,
): boolean {
  return firstMatch(candidate, accepted, normalize) !== undefined;
}

/** True iff one of `accepted`, normalised, is a substring of `text`, normalised. */
export function containsAny(
  text: string,
  accepted: readonly string[],
  normalize: (text: string) => string,
): boolean {
  return firstContained(text, accepted, normalize) !== undefined;
}
