import { viridis } from './color-scale.js';
import { escapeHtml } from './escape-html.js';

/**
 * A grouped bar chart: one group per `groups` entry, one bar per series, value labels
 * above every bar. values[group][series].
 */
export function renderGroupedBarChart(options: {
  title: string;
  groups: readonly string[];
  series: readonly string[];
  values: ReadonlyArray<ReadonlyArray<number>>;
  maximum: number;
  valueLabel: (value: number) => string;
}): string {
  const barWidth = 18;
  const groupGap = 22;
  const plotHeight = 160;
  const left = 40;
  const top = 30;
  const groupWidth = options.series.length * barWidth + groupGap;
  const legendHeight = 18 * Math.ceil(options.series.length / 3);
  const width = Math.max(360, left + options.groups.length * groupWidth + 10);
  const height = top + plotHeight + 40 + legendHeight;
  const colours = options.series.map((_, index) =>
    viridis(options.series.length === 1 ? 0.5 : index / (options.series.length - 1)),
  );
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(options.title)}">`,
    `<title>${escapeHtml(options.title)}</title>`,
    `<text x="${left}" y="16" font-size="13" font-weight="600">${escapeHtml(options.title)}</text>`,
    `<line x1="${left}" y1="${top + plotHeight}" x2="${width - 5}" y2="${top + plotHeight}" stroke="#555"/>`,
  ];
  options.groups.forEach((group, groupIndex) => {
    const groupLeft = left + groupIndex * groupWidth + groupGap / 2;
    options.series.forEach((series, seriesIndex) => {
      const value = options.values[groupIndex]![seriesIndex]!;
      const barHeight = options.maximum > 0 ? (value / options.maximum) * plotHeight : 0;
      const x = groupLeft + seriesIndex * barWidth;
      parts.push(
        `<rect x="${x}" y="${top + plotHeight - barHeight}" width="${barWidth - 3}" height="${barHeight}" fill="${colours[seriesIndex]}"><title>${escapeHtml(`${series}, ${group}: ${options.valueLabel(value)}`)}</title></rect>`,
        `<text x="${x + (barWidth - 3) / 2}" y="${top + plotHeight - barHeight - 3}" font-size="9" text-anchor="middle">${escapeHtml(options.valueLabel(value))}</text>`,
      );
    });
    parts.push(
      `<text x="${groupLeft + (options.series.length * barWidth) / 2}" y="${top + plotHeight + 14}" font-size="11" text-anchor="middle">${escapeHtml(group)}</text>`,
    );
  });
  options.series.forEach((series, index) => {
    const x = left + (index % 3) * 170;
    const y = top + plotHeight + 30 + Math.floor(index / 3) * 18;
    parts.push(
      `<rect x="${x}" y="${y}" width="10" height="10" fill="${colours[index]}"/>`,
      `<text x="${x + 14}" y="${y + 9}" font-size="11">${escapeHtml(series)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}
