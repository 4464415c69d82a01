import { escapeHtml } from './escape-html.js';

/**
 * Between a table cell's text and the 95% interval shown under it: `renderTextTable` prints the
 * intervals of a row on a second, aligned line; `htmlCell` on a second line of the cell; CSV keeps
 * the text alone. A cell without it is a cell as before (`--no-intervals`: no cell has one).
 */
export const INTERVAL_MARK = '\u001f';

/** The bounds of an interval, in the cell's own scale or as a fraction (`factor` 100). */
interface Bounds {
  lower: number;
  upper: number;
}

/**
 * A cell with its interval under it, `[84.0–90.2]` (bounds ×`factor`, `digits` decimals, then
 * `unit`, `%` for a tally's fraction); the text alone without an interval.
 */
export function cellWithInterval(
  text: string,
  interval: Bounds | null | undefined,
  options: { factor?: number; digits?: number; unit?: string } = {},
): string {
  if (!interval || !Number.isFinite(interval.lower) || !Number.isFinite(interval.upper)) return text;
  const { factor = 1, digits = 1, unit = '' } = options;
  const show = (value: number) => (value * factor).toFixed(digits);
  return `${text}${INTERVAL_MARK}[${show(interval.lower)}–${show(interval.upper)}${unit}]`;
}

/** A tally's cell (`12/20`, a count) with the interval of its fraction correct in percent: `[40.0–80.0%]`. */
export function tallyCell(text: string, tally: { interval?: Bounds } | null | undefined): string {
  return cellWithInterval(text, tally?.interval, { factor: 100, unit: '%' });
}

/** A cell's text and its interval ('' without one). */
export function cellParts(cell: string): [text: string, interval: string] {
  const at = cell.indexOf(INTERVAL_MARK);
  return at < 0 ? [cell, ''] : [cell.slice(0, at), cell.slice(at + INTERVAL_MARK.length)];
}

/** A cell's text without its interval (CSV, chart labels). */
export const plainCell = (cell: string) => cellParts(cell)[0];

/** A cell as HTML: its text escaped, its interval on a second line (`<span class="ci">`). */
export function htmlCell(cell: string): string {
  const [text, interval] = cellParts(cell);
  return interval
    ? `${escapeHtml(text)}<br><span class="ci">${escapeHtml(interval)}</span>`
    : escapeHtml(text);
}
