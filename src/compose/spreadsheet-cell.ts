/**
 * Text a spreadsheet would read as a formula (OWASP "CSV injection"): starting with `=`, `+`, `-`,
 * `@`, a tab or a carriage return — after any single quotes, so that a text already starting with
 * a quote and one of those keeps its own quote when the guard is taken off.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * A text cell a spreadsheet shows as text: a single quote before text that would start a formula
 * (`=HYPERLINK(…)` → `'=HYPERLINK(…)`), any other text as it is (docs/grades-csv.md).
 */
export function spreadsheetCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The text of a cell `spreadsheetCell` wrote: its one guarding quote taken off (for columns read back). */
export function cellText(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}
