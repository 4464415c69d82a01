/** A JSON value as the generation scripts write them: strings, integers, lists, objects. */
export type PythonJsonValue =
  | string
  | number
  | readonly PythonJsonValue[]
  | { readonly [key: string]: PythonJsonValue };

/**
 * Python's `json.dumps(value)` with its default separators (`", "`, `": "`), keys in insertion
 * order; `ensureAscii` as Python's flag (default true: every character outside space … `~` as
 * `\uXXXX`, lowercase, surrogate pairs for the rest). JSON.stringify escapes a string as Python
 * does otherwise (`\"`, `\\`, `\n`-style escapes, other control characters as `\u00xx`).
 * Strings, integers, arrays and plain objects only (Python writes floats its own way).
 */
export function pythonJsonDumps(value: unknown, options: { ensureAscii?: boolean } = {}): string {
  const ascii = options.ensureAscii ?? true;
  const dump = (item: unknown): string => {
    if (typeof item === 'string') return ascii ? asciiOnly(JSON.stringify(item)) : JSON.stringify(item);
    if (typeof item === 'number') {
      if (!Number.isInteger(item)) throw new Error('pythonJsonDumps writes integers only');
      return String(item);
    }
    if (Array.isArray(item)) return `[${item.map(dump).join(', ')}]`;
    if (item === null || typeof item !== 'object')
      throw new Error(`pythonJsonDumps cannot write ${typeof item}`);
    return `{${Object.entries(item)
      .map(([key, entry]) => `${dump(key)}: ${dump(entry)}`)
      .join(', ')}}`;
  };
  return dump(value);
}

function asciiOnly(text: string): string {
  return text.replace(
    /[\u007f-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
