import type { ReportTable } from '../core/suite.js';
import { cellParts } from './interval-cell.js';

/**
 * Renders rows as a plain-text table: first column left-aligned, the others right-aligned. Cells
 * with an interval (`cellWithInterval`) put it on a second line under the row, aligned with it.
 */
export function renderTextTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const lines = rows.flatMap((row) => {
    const parts = row.map(cellParts);
    const text = parts.map(([cell]) => cell);
    return parts.some(([, interval]) => interval) ? [text, parts.map(([, interval]) => interval)] : [text];
  });
  const widths = header.map((cell, column) =>
    Math.max([...cell].length, ...lines.map((row) => [...(row[column] ?? '')].length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => {
        const padding = ' '.repeat(widths[column]! - [...cell].length);
        return column === 0 ? cell + padding : padding + cell;
      })
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...lines.map(line)].join('\n');
}

/** A report's table as text: its title, then the table. */
export function renderReportTable(table: Pick<ReportTable, 'title' | 'header' | 'rows'>): string {
  return `${table.title}\n${renderTextTable(table.header, table.rows)}`;
}
