import { viridis } from './color-scale.js';
import { escapeHtml } from './escape-html.js';

/** A line chart of series over shared x labels (values 0–100), every point labelled with its value. */
export function renderLineChart(options: {
  title: string;
  xLabels: readonly string[];
  series: ReadonlyArray<{ name: string; values: ReadonlyArray<number | undefined> }>;
  yLabel: string;
}): string {
  const plotWidth = Math.max(240, options.xLabels.length * 60);
  const plotHeight = 180;
  const left = 44;
  const top = 46;
  const legend = 18 * options.series.length;
  const width = left + plotWidth + 20;
  const height = top + plotHeight + 40 + legend;
  const x = (index: number) =>
    left +
    (options.xLabels.length === 1 ? plotWidth / 2 : (index * plotWidth) / (options.xLabels.length - 1));
  const y = (value: number) => top + plotHeight - (value / 100) * plotHeight;
  const colour = (index: number) =>
    viridis(options.series.length === 1 ? 0.5 : (index / (options.series.length - 1)) * 0.85);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(options.title)}">`,
    `<title>${escapeHtml(`${options.title} (${options.yLabel})`)}</title>`,
    `<text x="8" y="16" font-size="13" font-weight="600">${escapeHtml(options.title)}</text>`,
  ];
  for (const tick of [0, 25, 50, 75, 100]) {
    parts.push(
      `<line x1="${left}" y1="${y(tick)}" x2="${left + plotWidth}" y2="${y(tick)}" stroke="#e5e5e5"/>`,
      `<text x="${left - 6}" y="${y(tick) + 3}" font-size="10" text-anchor="end">${tick}</text>`,
    );
  }
  options.xLabels.forEach((label, index) => {
    parts.push(
      `<text x="${x(index)}" y="${top + plotHeight + 14}" font-size="10" text-anchor="middle">${escapeHtml(label)}</text>`,
    );
  });
  options.series.forEach((series, seriesIndex) => {
    const points = series.values.flatMap((value, index) =>
      value === undefined ? [] : [{ x: x(index), y: y(value), value }],
    );
    if (points.length > 1) {
      parts.push(
        `<polyline fill="none" stroke="${colour(seriesIndex)}" stroke-width="2" points="${points.map((point) => `${point.x},${point.y}`).join(' ')}"/>`,
      );
    }
    for (const point of points) {
      parts.push(
        `<circle cx="${point.x}" cy="${point.y}" r="3" fill="${colour(seriesIndex)}"><title>${escapeHtml(`${series.name}: ${point.value.toFixed(2)}`)}</title></circle>`,
        `<text x="${point.x}" y="${point.y - 6}" font-size="9" text-anchor="middle">${point.value.toFixed(1)}</text>`,
      );
    }
    const legendY = top + plotHeight + 32 + seriesIndex * 18;
    parts.push(
      `<rect x="${left}" y="${legendY}" width="10" height="10" fill="${colour(seriesIndex)}"/>`,
      `<text x="${left + 14}" y="${legendY + 9}" font-size="11">${escapeHtml(series.name)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}
