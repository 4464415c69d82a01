import { viridis } from './color-scale.js';
import { escapeHtml } from './escape-html.js';

/**
 * A radar chart: one polygon per series over shared axes scaled 0–100. A missing value is not
 * drawn as 0: the polygon joins the axes that have values, each of which also gets a dot.
 */
export function renderRadar(options: {
  title: string;
  axes: readonly string[];
  series: ReadonlyArray<{ name: string; values: ReadonlyArray<number | undefined> }>;
}): string {
  const radius = 150;
  const centerX = 260;
  const centerY = 200;
  const width = 520;
  const height = 400 + 18 * options.series.length;
  const angle = (index: number) => -Math.PI / 2 + (2 * Math.PI * index) / options.axes.length;
  const point = (index: number, value: number) => ({
    x: centerX + (Math.cos(angle(index)) * (radius * value)) / 100,
    y: centerY + (Math.sin(angle(index)) * (radius * value)) / 100,
  });
  const colour = (index: number) =>
    viridis(options.series.length === 1 ? 0.5 : (index / (options.series.length - 1)) * 0.85);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(options.title)}">`,
    `<title>${escapeHtml(options.title)}</title>`,
    `<text x="8" y="16" font-size="13" font-weight="600">${escapeHtml(options.title)}</text>`,
  ];
  for (const ring of [25, 50, 75, 100]) {
    const ringPoints = options.axes.map((_, index) => point(index, ring));
    parts.push(
      `<polygon points="${ringPoints.map((item) => `${item.x},${item.y}`).join(' ')}" fill="none" stroke="#e0e0e0"/>`,
    );
  }
  options.axes.forEach((axis, index) => {
    const end = point(index, 100);
    const label = point(index, 116);
    parts.push(
      `<line x1="${centerX}" y1="${centerY}" x2="${end.x}" y2="${end.y}" stroke="#d0d0d0"/>`,
      `<text x="${label.x}" y="${label.y + 4}" font-size="11" text-anchor="middle">${escapeHtml(axis)}</text>`,
    );
  });
  options.series.forEach((series, seriesIndex) => {
    const vertices = options.axes.flatMap((_, index) => {
      const value = series.values[index];
      return value === undefined ? [] : [point(index, value)];
    });
    parts.push(
      `<polygon points="${vertices.map((item) => `${item.x},${item.y}`).join(' ')}" fill="${colour(seriesIndex)}" fill-opacity="0.15" stroke="${colour(seriesIndex)}" stroke-width="2"><title>${escapeHtml(series.name)}</title></polygon>`,
      ...vertices.map(
        (item) => `<circle cx="${item.x}" cy="${item.y}" r="2.5" fill="${colour(seriesIndex)}"/>`,
      ),
    );
    const legendY = 385 + seriesIndex * 18;
    parts.push(
      `<rect x="20" y="${legendY}" width="10" height="10" fill="${colour(seriesIndex)}"/>`,
      `<text x="34" y="${legendY + 9}" font-size="11">${escapeHtml(series.name)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}
