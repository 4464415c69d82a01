import { createReadStream, readFileSync } from 'node:fs';
import type { z } from 'zod';
import { fileError, isFileSystemError, MedbenchError } from '../core/errors.js';

/**
 * How every text file medbench is given is read: UTF-8, a leading BOM dropped, CRLF accepted.
 * UTF-16 and bytes that are not UTF-8 are errors naming the file (and the line), never text
 * silently altered with replacement characters.
 */

const HINT_UTF16 = 'Re-save the file as UTF-8 (e.g. `iconv -f UTF-16 -t UTF-8 in > out`).';
const HINT_UTF8 =
  'Re-save the file as UTF-8, or find the line with `grep -naxv ".*" <file>` and fix its encoding.';

function invalid(message: string, hint: string): MedbenchError {
  return new MedbenchError({ code: 'DATA_INVALID', message, hint });
}

/** A UTF-16 byte-order mark, or the zero bytes of UTF-16 text without one. */
function looksUtf16(bytes: Uint8Array): boolean {
  if (
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  )
    return true;
  const sample = bytes.subarray(0, 512);
  let zeros = 0;
  for (const byte of sample) if (byte === 0) zeros++;
  return sample.length >= 4 && zeros >= sample.length / 4;
}

/** The 1-based line of the first byte that is not UTF-8. */
function firstInvalidLine(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    try {
      decoder.decode(bytes.subarray(start, end));
    } catch {
      return line;
    }
    start = end + 1;
    line++;
  }
  return line;
}

/** Decodes a file's bytes as UTF-8 (BOM dropped); other encodings are errors naming the file and line. */
export function decodeUtf8(bytes: Uint8Array, path: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    if (looksUtf16(bytes)) throw invalid(`${path}: the file is UTF-16, not UTF-8.`, HINT_UTF16);
    throw invalid(`${path}:${firstInvalidLine(bytes)}: the line is not valid UTF-8.`, HINT_UTF8);
  }
  if (looksUtf16(bytes)) throw invalid(`${path}: the file is UTF-16, not UTF-8.`, HINT_UTF16);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Reads a whole text file (see `decodeUtf8`); a missing or unreadable file is a clear error. */
export function readTextFile(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if (isFileSystemError(error) && error.code === 'ENOENT')
      throw new MedbenchError({ code: 'DATA_NOT_FOUND', message: `File not found: ${path}`, cause: error });
    throw fileError(error, { path, action: 'read' });
  }
  return decodeUtf8(bytes, path);
}

/** Line and column (1-based) of a character offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

type ScanState = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'after';

/** A JSON syntax scanner with an explicit stack; each step returns the culprit's offset or undefined. */
class JsonScanner {
  i = 0;
  private readonly stack: Array<'[' | '{'> = [];
  state: ScanState = 'value';

  constructor(private readonly text: string) {}

  skipSpace(): void {
    const { text } = this;
    while (
      this.i < text.length &&
      (text[this.i] === ' ' || text[this.i] === '\t' || text[this.i] === '\n' || text[this.i] === '\r')
    )
      this.i++;
  }

  /** Moves past a string starting at i; false (i at the culprit) when it is not one. */
  private string(): boolean {
    const { text } = this;
    this.i++;
    while (this.i < text.length) {
      const character = text[this.i]!;
      if (character === '"') {
        this.i++;
        return true;
      }
      if (character === '\\') {
        const escaped = text[this.i + 1];
        if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) this.i += 2;
        else if (escaped === 'u') {
          this.i += 2;
          for (let digit = 0; digit < 4; digit++, this.i++)
            if (!/[0-9a-fA-F]/.test(text[this.i] ?? '')) return false;
        } else {
          this.i++;
          return false;
        }
      } else if (character < ' ') return false;
      else this.i++;
    }
    return false;
  }

  private digits(): boolean {
    const start = this.i;
    while (this.i < this.text.length && this.text[this.i]! >= '0' && this.text[this.i]! <= '9') this.i++;
    return this.i > start;
  }

  /** Moves past a number or true/false/null; false (i at the culprit) when it is not one. */
  private scalar(): boolean {
    const { text } = this;
    const word = ['true', 'false', 'null'].find((candidate) => candidate[0] === text[this.i]);
    if (word) {
      for (const expected of word) {
        if (text[this.i] !== expected) return false;
        this.i++;
      }
      return true;
    }
    if (text[this.i] === '-') this.i++;
    if (text[this.i] === '0') this.i++;
    else if (!this.digits()) return false;
    if (text[this.i] === '.') {
      this.i++;
      if (!this.digits()) return false;
    }
    if (text[this.i] === 'e' || text[this.i] === 'E') {
      this.i++;
      if (text[this.i] === '+' || text[this.i] === '-') this.i++;
      if (!this.digits()) return false;
    }
    return true;
  }

  private culprit(): number {
    return Math.min(this.i, this.text.length);
  }

  /** Where a value may start (or an array close). */
  value(character: string): number | undefined {
    if (character === ']' && this.state === 'value-or-close') {
      this.stack.pop();
      this.i++;
      this.state = 'after';
    } else if (character === '[' || character === '{') {
      this.stack.push(character);
      this.i++;
      this.state = character === '[' ? 'value-or-close' : 'key-or-close';
    } else {
      if (!(character === '"' ? this.string() : this.scalar())) return this.culprit();
      this.state = 'after';
    }
    return undefined;
  }

  /** Where a key may start (or an object close). */
  key(character: string): number | undefined {
    if (character === '}' && this.state === 'key-or-close') {
      this.stack.pop();
      this.i++;
      this.state = 'after';
      return undefined;
    }
    if (character !== '"' || !this.string()) return this.culprit();
    this.skipSpace();
    if (this.text[this.i] !== ':') return this.culprit();
    this.i++;
    this.state = 'value';
    return undefined;
  }

  /** After a value: a comma, the close of the container, or (at the top) nothing. */
  after(character: string): number | undefined {
    const open = this.stack.at(-1);
    if (open === undefined) return this.i;
    if (character === ',') {
      this.i++;
      this.state = open === '[' ? 'value' : 'key';
    } else if ((character === ']' && open === '[') || (character === '}' && open === '{')) {
      this.stack.pop();
      this.i++;
    } else return this.i;
    return undefined;
  }
}

/**
 * Offset of the first character where `text` stops being JSON (its length when the text ends
 * too early). A scanner with an explicit stack, so deep nesting cannot overflow it.
 */
export function jsonSyntaxErrorOffset(text: string): number {
  const scanner = new JsonScanner(text);
  for (;;) {
    scanner.skipSpace();
    if (scanner.i >= text.length) return text.length;
    const character = text[scanner.i]!;
    const { state } = scanner;
    const culprit =
      state === 'value' || state === 'value-or-close'
        ? scanner.value(character)
        : state === 'key' || state === 'key-or-close'
          ? scanner.key(character)
          : scanner.after(character);
    if (culprit !== undefined) return culprit;
  }
}

/** Parses JSON text; a syntax error names the file, line and column. */
export function parseJsonText(text: string, path: string, hint?: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // V8 names a position for most errors, not for an unexpected token; find that one ourselves.
    const position = /position (\d+)/.exec(message);
    const where = lineAndColumn(text, position ? Number(position[1]) : jsonSyntaxErrorOffset(text));
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}:${where.line}:${where.column}: not valid JSON (${message}).`,
      ...(hint ? { hint } : {}),
      cause: error,
    });
  }
}

/** Reads and parses a JSON file (see `readTextFile` and `parseJsonText`). */
export function readJsonFile(path: string, hint?: string): unknown {
  return parseJsonText(readTextFile(path), path, hint);
}

/**
 * The lines of a text file, streamed (for files too large to hold twice): each decoded as
 * UTF-8 on its own, so an error names its line; a BOM and CR line ends are dropped.
 */
export async function* readTextLines(path: string): AsyncGenerator<{ line: number; text: string }> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending: Buffer = Buffer.alloc(0);
  let line = 0;
  const decodeLine = (bytes: Buffer): string => {
    line++;
    if (line === 1 && looksUtf16(bytes)) throw invalid(`${path}: the file is UTF-16, not UTF-8.`, HINT_UTF16);
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw invalid(`${path}:${line}: the line is not valid UTF-8.`, HINT_UTF8);
    }
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  try {
    for await (const chunk of createReadStream(path)) {
      pending = pending.length === 0 ? (chunk as Buffer) : Buffer.concat([pending, chunk as Buffer]);
      let start = 0;
      for (let end = pending.indexOf(0x0a, start); end !== -1; end = pending.indexOf(0x0a, start)) {
        const text = decodeLine(pending.subarray(start, end));
        yield { line, text };
        start = end + 1;
      }
      pending = pending.subarray(start);
    }
  } catch (error) {
    if (MedbenchError.is(error)) throw error;
    if (isFileSystemError(error) && error.code === 'ENOENT')
      throw new MedbenchError({ code: 'DATA_NOT_FOUND', message: `File not found: ${path}`, cause: error });
    throw fileError(error, { path, action: 'read' });
  }
  if (pending.length > 0) {
    const text = decodeLine(pending);
    yield { line, text };
  }
}

/** A JSON value in words, for "expected …; found …" messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list (${JSON.stringify(value).slice(0, 60)})`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 60))}`;
  if (typeof value === 'object') return 'an object';
  return `the ${typeof value} ${String(value)}`;
}

/**
 * The lines of a JSON-lines file, each parsed and checked against `schema`. A bad line is an
 * error naming file, line and field, what was expected (`expected` words per field, else zod's
 * message) and what was found. Blank lines are skipped.
 */
export function readJsonLinesFile<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  options: { expected?: Readonly<Record<string, string>>; hint?: string } = {},
): Array<{ line: number; value: z.infer<Schema> }> {
  const fail = (line: number, message: string) =>
    new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}:${line}: ${message}`,
      ...(options.hint ? { hint: options.hint } : {}),
    });
  const lines = readTextFile(path).split('\n');
  const values: Array<{ line: number; value: z.infer<Schema> }> = [];
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index]!.endsWith('\r') ? lines[index]!.slice(0, -1) : lines[index]!;
    if (text.trim() === '') continue;
    const line = index + 1;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw fail(line, `not valid JSON (${(error as Error).message}).`);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json))
      throw fail(line, `expected a JSON object, found ${describeValue(json)}.`);
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? '');
      const found = (json as Record<string, unknown>)[field];
      const expected = options.expected?.[field] ?? issue.message;
      const value =
        issue.path.length > 1
          ? issue.path.slice(1).reduce<unknown>((inner, key) => (inner as never)?.[key as never], found)
          : found;
      throw fail(
        line,
        `field "${issue.path.join('.')}": expected ${expected}; found ${describeValue(value)}.`,
      );
    }
    values.push({ line, value: parsed.data });
  }
  return values;
}
