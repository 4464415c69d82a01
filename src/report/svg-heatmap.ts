import { textOn, viridis, WIDE_INTERVAL } from './color-scale.js';
import { escapeHtml } from './escape-html.js';

export interface HeatmapCell {
  /** In [0, 1]; null for a cell with no value (drawn grey with its label). */
  value: number | null;
  label: string;
  /** The cell's 95% interval as its tooltip gives it (`95% interval 55–90%`). */
  interval?: string;
  /** Whether that interval is wide (`WIDE_INTERVAL`): the cell gets a corner mark. */
  wide?: boolean;
}

/** A cell's uncertainty from its interval (fractions in [0, 1]): its tooltip text and whether it is wide. */
export function heatmapUncertainty(
  value: number | null,
  interval: { lower: number; upper: number } | undefined,
): Pick<HeatmapCell, 'interval' | 'wide'> {
  if (value === null || !interval) return {};
  const percent = (fraction: number) => (100 * fraction).toFixed(0);
  return {
    interval: `95% interval ${percent(interval.lower)}–${percent(interval.upper)}%`,
    wide: interval.upper - interval.lower >= WIDE_INTERVAL,
  };
}

/**
 * An SVG heatmap with its value written in every cell, so no reading depends on colour.
 * cells[row][column].
 */
export function renderHeatmap(options: {
  title: string;
  rowLabels: readonly string[];
  columnLabels: readonly string[];
  cells: ReadonlyArray<ReadonlyArray<HeatmapCell>>;
  rowAxis: string;
  columnAxis: string;
}): string {
  const cellWidth = 52;
  const cellHeight = 28;
  const left = 64;
  const top = 44;
  const marked = options.cells.some((row) => row.some((cell) => cell.wide));
  const caption = `rows: ${options.rowAxis} · columns: ${options.columnAxis}${marked ? ` · ◥ 95% interval ≥ ${100 * WIDE_INTERVAL} points wide` : ''}`;
  // Wide enough for the cells, the title and the axis caption (about 7 px a character).
  const width = Math.max(
    left + cellWidth * options.columnLabels.length + 12,
    8 + [...options.title].length * 7.6,
    8 + [...caption].length * 6.2,
  );
  const height = top + cellHeight * options.rowLabels.length + 34;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${Math.ceil(width)} ${height}" width="${Math.ceil(width)}" height="${height}" role="img" aria-label="${escapeHtml(options.title)}">`,
    `<title>${escapeHtml(options.title)}</title>`,
    `<text x="8" y="16" font-size="13" font-weight="600">${escapeHtml(options.title)}</text>`,
  ];
  options.columnLabels.forEach((label, column) => {
    parts.push(
      `<text x="${left + column * cellWidth + cellWidth / 2}" y="${top - 8}" font-size="11" text-anchor="middle">${escapeHtml(label)}</text>`,
    );
  });
  options.rowLabels.forEach((label, row) => {
    parts.push(
      `<text x="${left - 8}" y="${top + row * cellHeight + cellHeight / 2 + 4}" font-size="11" text-anchor="end">${escapeHtml(label)}</text>`,
    );
    options.cells[row]!.forEach((cell, column) => {
      const x = left + column * cellWidth;
      const y = top + row * cellHeight;
      const fill = cell.value === null ? '#d9d9d9' : viridis(cell.value);
      const ink = cell.value === null ? '#333333' : textOn(cell.value);
      const tooltip = `${label} × ${options.columnLabels[column]}: ${cell.label}${cell.interval ? `, ${cell.interval}` : ''}`;
      parts.push(
        `<rect x="${x}" y="${y}" width="${cellWidth - 2}" height="${cellHeight - 2}" fill="${fill}"><title>${escapeHtml(tooltip)}</title></rect>`,
        `<text x="${x + cellWidth / 2 - 1}" y="${y + cellHeight / 2 + 3}" font-size="10" text-anchor="middle" fill="${ink}">${escapeHtml(cell.label)}</text>`,
      );
      // A wide interval: a corner triangle in the text's colour (readable on the fill), with the tooltip too.
      if (cell.wide)
        parts.push(
          `<path class="wide" d="M${x + cellWidth - 12} ${y}H${x + cellWidth - 2}V${y + 10}Z" fill="${ink}"><title>${escapeHtml(tooltip)}</title></path>`,
        );
    });
  });
  parts.push(`<text x="8" y="${height - 10}" font-size="11">${escapeHtml(caption)}</text>`, '</svg>');
  return parts.join('');
}
