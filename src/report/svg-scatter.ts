import { escapeHtml } from './escape-html.js';

/** An SVG scatter plot with every point labelled by name and value (no reading relies on colour). */
export function renderScatter(options: {
  title: string;
  xLabel: string;
  yLabel: string;
  points: ReadonlyArray<{ label: string; x: number; y: number }>;
  /** Axis range, same for both axes. */
  maximum: number;
}): string {
  const size = 360;
  const left = 50;
  const top = 30;
  const width = left + size + 220;
  const height = top + size + 50;
  const scale = (value: number) => (value / options.maximum) * size;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(options.title)}">`,
    `<title>${escapeHtml(options.title)}</title>`,
    `<text x="8" y="16" font-size="13" font-weight="600">${escapeHtml(options.title)}</text>`,
    `<rect x="${left}" y="${top}" width="${size}" height="${size}" fill="none" stroke="#888"/>`,
    `<line x1="${left}" y1="${top + size}" x2="${left + size}" y2="${top}" stroke="#ccc" stroke-dasharray="4 4"/>`,
  ];
  for (let tick = 0; tick <= options.maximum; tick += options.maximum / 5) {
    const offset = scale(tick);
    parts.push(
      `<text x="${left + offset}" y="${top + size + 14}" font-size="10" text-anchor="middle">${tick.toFixed(0)}</text>`,
      `<text x="${left - 6}" y="${top + size - offset + 3}" font-size="10" text-anchor="end">${tick.toFixed(0)}</text>`,
    );
  }
  parts.push(
    `<text x="${left + size / 2}" y="${top + size + 32}" font-size="11" text-anchor="middle">${escapeHtml(options.xLabel)}</text>`,
    `<text x="12" y="${top + size / 2}" font-size="11" transform="rotate(-90 12 ${top + size / 2})" text-anchor="middle">${escapeHtml(options.yLabel)}</text>`,
  );
  for (const point of options.points) {
    const x = left + scale(point.x);
    const y = top + size - scale(point.y);
    parts.push(
      `<circle cx="${x}" cy="${y}" r="4" fill="#21918c"><title>${escapeHtml(`${point.label}: ${point.x.toFixed(2)}, ${point.y.toFixed(2)}`)}</title></circle>`,
      `<text x="${x + 7}" y="${y + 3}" font-size="10">${escapeHtml(`${point.label} (${point.x.toFixed(1)}, ${point.y.toFixed(1)})`)}</text>`,
    );
  }
  parts.push('</svg>');
  return parts.join('');
}
