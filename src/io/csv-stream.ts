import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';
import { createGunzip } from 'node:zlib';
import { fileError, isFileSystemError, MedbenchError } from '../core/errors.js';

/** Python's `csv.field_size_limit()` default: a longer field stops `csv.reader`. */
export const PYTHON_CSV_FIELD_LIMIT = 131_072;

export interface CsvStreamOptions {
  /** Called for every record (header included) with its 0-based index and its first line. */
  onRow: (fields: string[], row: number, line: number) => void;
  /** A field longer than this is an error naming the row (default: no limit). */
  fieldLimit?: number;
  /**
   * Whether a field's text is wanted (record index, column); an unwanted one is read, checked
   * against the limit and handed over as ''. Skipping a 3 GB file's note texts saves building them.
   */
  keep?: (row: number, column: number) => boolean;
  /** Bytes read at a time (default 64 KiB: larger chunks cost memory and, measured, time). */
  chunkBytes?: number;
}

/**
 * Reads a CSV file of any size as Python's `csv.reader` reads a file opened in text mode:
 * universal newlines first (CRLF and a lone CR become LF, inside quoted fields too), then the
 * excel dialect — a quote opens a quoted field only at the field's start, a doubled quote inside
 * one is a literal quote, characters after a closing quote are kept, and an unterminated quoted
 * field at the end of the file ends there. A blank line is a record of no fields. Bytes that are
 * not UTF-8 are an error naming the line (Python would stop there too). A `.gz` file is read
 * through gunzip (PhysioNet ships MIMIC-IV's tables gzipped). Resolves to the number of records.
 */
export async function streamCsv(path: string, options: CsvStreamOptions): Promise<number> {
  const parser = new CsvParser(path, options);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const file = createReadStream(path, { highWaterMark: options.chunkBytes ?? 64 * 1024 });
  const source = path.endsWith('.gz') ? file.pipe(createGunzip()) : file;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>)
      parser.push(decodeChunk(decoder, chunk, false, path, parser.line));
    parser.push(decodeChunk(decoder, new Uint8Array(0), true, path, parser.line));
  } catch (error) {
    if (error instanceof MedbenchError) throw error;
    if (isFileSystemError(error)) throw fileError(error, { path, action: 'read' });
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}: ${error instanceof Error ? error.message : String(error)}`,
      hint: 'A .gz file must be gzip as PhysioNet ships it; otherwise give the plain CSV.',
    });
  } finally {
    file.destroy();
  }
  return parser.finish();
}

function decodeChunk(
  decoder: TextDecoder,
  bytes: Uint8Array,
  last: boolean,
  path: string,
  line: number,
): string {
  try {
    return decoder.decode(bytes, { stream: !last });
  } catch {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}: bytes that are not UTF-8 near line ${line + newlinesBeforeInvalid(bytes)}`,
      hint: 'Give the file as its publisher released it (UTF-8); re-export it if a tool changed its encoding.',
    });
  }
}

/** Newlines in `bytes` before the first line that does not decode (the chunk's parse has not begun). */
function newlinesBeforeInvalid(bytes: Uint8Array): number {
  const strict = new TextDecoder('utf-8', { fatal: true });
  let newlines = 0;
  let start = 0;
  for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
    try {
      strict.decode(bytes.subarray(start, end));
    } catch {
      return newlines;
    }
    newlines++;
    start = end + 1;
  }
  return newlines;
}

const State = { StartRecord: 0, StartField: 1, InField: 2, InQuoted: 3, QuoteInQuoted: 4 } as const;
type State = (typeof State)[keyof typeof State];
const QUOTED_SPECIAL = /["\r\n]/g;
const FIELD_SPECIAL = /[,\r\n]/g;

class CsvParser {
  line = 1;
  private state: State = State.StartRecord;
  private fields: string[] = [];
  private field = '';
  private row = 0;
  private rowLine = 1;
  private afterCarriageReturn = false;
  private readonly limit: number;
  /** The current field's length, kept or not. */
  private length = 0;
  private keeping = true;

  constructor(
    private readonly path: string,
    private readonly options: CsvStreamOptions,
  ) {
    this.limit = options.fieldLimit ?? Number.POSITIVE_INFINITY;
    this.nextField();
  }

  push(text: string): void {
    for (let index = 0; index < text.length; index++) {
      // Inside a field, copy the run up to the next character that matters in one slice.
      if (this.state === State.InQuoted || this.state === State.InField) {
        const special = this.state === State.InQuoted ? QUOTED_SPECIAL : FIELD_SPECIAL;
        special.lastIndex = index;
        const end = special.exec(text)?.index ?? text.length;
        if (end > index) {
          this.afterCarriageReturn = false;
          this.appendRun(text.slice(index, end));
          index = end - 1;
          continue;
        }
      }
      let character = text[index]!;
      if (character === '\n' && this.afterCarriageReturn) {
        this.afterCarriageReturn = false;
        continue;
      }
      this.afterCarriageReturn = character === '\r';
      if (character === '\r') character = '\n';
      this.step(character);
    }
  }

  private step(character: string): void {
    switch (this.state) {
      case State.StartRecord:
        this.rowLine = this.line;
        if (character === '\n') {
          this.endRecord();
          return;
        }
        this.state = State.StartField;
        this.step(character);
        return;
      case State.StartField:
        if (character === '"') this.state = State.InQuoted;
        else if (character === ',') this.saveField();
        else if (character === '\n') this.endRecord();
        else this.append(character, State.InField);
        return;
      case State.InField:
        if (character === ',') this.saveField();
        else if (character === '\n') this.endRecord();
        else this.append(character, State.InField);
        return;
      case State.InQuoted:
        if (character === '"') this.state = State.QuoteInQuoted;
        else this.append(character, State.InQuoted);
        return;
      case State.QuoteInQuoted:
        if (character === '"') this.append('"', State.InQuoted);
        else if (character === ',') this.saveField();
        else if (character === '\n') this.endRecord();
        else this.append(character, State.InField);
    }
  }

  private appendRun(run: string): void {
    if (this.keeping) this.field += run;
    this.length += run.length;
    this.checkLimit();
  }

  private append(character: string, next: State): void {
    if (character === '\n') this.line++;
    if (this.keeping) this.field += character;
    this.length++;
    this.state = next;
    this.checkLimit();
  }

  private checkLimit(): void {
    if (this.length > this.limit)
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `${this.path}: the field in record ${this.row} (line ${this.rowLine}) is longer than ${this.limit} characters`,
        hint: "Python's csv module, which the reference script reads this file with, stops at such a field; check that the file is the official release (a quote may be unbalanced).",
      });
  }

  private nextField(): void {
    this.field = '';
    this.length = 0;
    this.keeping = this.options.keep?.(this.row, this.fields.length) ?? true;
  }

  private saveField(): void {
    this.fields.push(this.field);
    this.nextField();
    this.state = State.StartField;
  }

  private endRecord(): void {
    if (this.state !== State.StartRecord) this.fields.push(this.field);
    this.options.onRow(this.fields, this.row++, this.rowLine);
    this.fields = [];
    this.nextField();
    this.state = State.StartRecord;
    this.line++;
  }

  finish(): number {
    if (this.state !== State.StartRecord) this.endRecord();
    return this.row;
  }
}
