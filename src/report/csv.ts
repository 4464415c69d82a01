import { plainCell } from './interval-cell.js';

/** One CSV field (RFC 4180): quoted when it holds a double quote, a comma, CR or LF, its quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A table as CSV (RFC 4180): the header row, then a record per row, every line ending in CRLF;
 * a cell's interval (`cellWithInterval`) is left out: the values stay numbers (--json has the intervals).
 */
export function renderCsv(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [header, ...rows]
    .map((row) => `${row.map((cell) => csvField(plainCell(cell))).join(',')}\r\n`)
    .join('');
}
