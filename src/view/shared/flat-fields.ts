/** One field of a flattened record: its dotted key and its value as text. */
export interface FlatField {
  key: string;
  text: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isPlain = (value: unknown) => value === null || typeof value !== 'object';

function plainText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return String(value);
}

/**
 * A record (a run's model description or parameters) as fields: nested objects and arrays of
 * objects flattened to dotted keys (`release.files.0.file`), arrays of plain values joined by
 * ", ", null as "—", an empty list or object as "(none)". Never JSON.
 */
export function flatFields(record: Record<string, unknown>, prefix = ''): FlatField[] {
  return Object.entries(record).flatMap(([name, value]): FlatField[] => {
    const key = prefix ? `${prefix}.${name}` : name;
    if (isRecord(value))
      return Object.keys(value).length === 0 ? [{ key, text: '(none)' }] : flatFields(value, key);
    if (Array.isArray(value)) {
      if (value.length === 0) return [{ key, text: '(none)' }];
      if (value.every(isPlain)) return [{ key, text: value.map(plainText).join(', ') }];
      return flatFields(Object.fromEntries(value.map((item, index) => [String(index), item])), key);
    }
    return [{ key, text: plainText(value) }];
  });
}
