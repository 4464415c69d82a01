/** One CSV field (RFC 4180): quoted when it holds a double quote, a comma, CR or LF, its quotes doubled. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A table as CSV (RFC 4180): the header row, then a record per row, every line ending in CRLF. */
export function renderCsv(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}
