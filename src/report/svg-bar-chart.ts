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
  /** Labels above the bars instead of `valueLabel` (labels[group][series]), e.g. "6/7". */
  labels?: ReadonlyArray<ReadonlyArray<string>>;
}): string {
  // Wide enough for the longest bar label (about 5.2 px a character at 9 px).
  const longestLabel = Math.max(
    ...options.groups.flatMap((_, group) =>
      options.series.map(
        (__, series) =>
          [...(options.labels?.[group]?.[series] ?? options.valueLabel(options.values[group]![series]!))]
            .length,
      ),
    ),
    1,
  );
  const barWidth = Math.max(18, Math.ceil(longestLabel * 5.2) + 5);
  const groupGap = 22;
  const plotHeight = 160;
  const left = 40;
  const top = 30;
  const groupWidth = options.series.length * barWidth + groupGap;
  // Legend: as many columns as the longest label allows (about 6.5 px a character at 11 px).
  const longest = Math.max(...options.series.map((series) => [...series].length), 1);
  const legendColumn = Math.ceil(longest * 6.5) + 24;
  const width = Math.max(
    360,
    left + options.groups.length * groupWidth + 10,
    left + [...options.title].length * 7.5,
  );
  const legendColumns = Math.max(1, Math.min(3, Math.floor((width - left) / legendColumn)));
  const legendHeight = 18 * Math.ceil(options.series.length / legendColumns);
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
      const label = options.labels?.[groupIndex]?.[seriesIndex] ?? options.valueLabel(value);
      const barHeight = options.maximum > 0 ? (value / options.maximum) * plotHeight : 0;
      const x = groupLeft + seriesIndex * barWidth;
      parts.push(
        `<rect x="${x}" y="${top + plotHeight - barHeight}" width="${barWidth - 3}" height="${barHeight}" fill="${colours[seriesIndex]}"><title>${escapeHtml(`${series}, ${group}: ${label}`)}</title></rect>`,
        `<text x="${x + (barWidth - 3) / 2}" y="${top + plotHeight - barHeight - 3}" font-size="9" text-anchor="middle">${escapeHtml(label)}</text>`,
      );
    });
    parts.push(
      `<text x="${groupLeft + (options.series.length * barWidth) / 2}" y="${top + plotHeight + 14}" font-size="11" text-anchor="middle">${escapeHtml(group)}</text>`,
    );
  });
  options.series.forEach((series, index) => {
    const x = left + (index % legendColumns) * legendColumn;
    const y = top + plotHeight + 30 + Math.floor(index / legendColumns) * 18;
    parts.push(
      `<rect x="${x}" y="${y}" width="10" height="10" fill="${colours[index]}"/>`,
      `<text x="${x + 14}" y="${y + 9}" font-size="11">${escapeHtml(series)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}
