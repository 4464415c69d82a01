/** A response's status and JSON body, read loosely: tests pick fields with `at`. */
export async function fetchJson(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as unknown };
}

export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetchJson(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });

/** The value at `path` inside `value` (undefined when a step is missing). */
export function at(value: unknown, ...path: Array<string | number>): unknown {
  let current = value;
  for (const step of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

/** The string at `path`, or a thrown error naming the path. */
export function text(value: unknown, ...path: Array<string | number>): string {
  const found = at(value, ...path);
  if (typeof found !== 'string') throw new Error(`no string at ${path.join('.')}: ${JSON.stringify(value)}`);
  return found;
}

/** The lines of a JSONL body, parsed. */
export function jsonLines(body: string): unknown[] {
  return body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
}
