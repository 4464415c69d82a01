import { seriesColour } from './color-scale.js';
import { escapeHtml } from './escape-html.js';

/** Above this many series, points carry their values as tooltips only (written labels would overlap). */
const LABELLED_SERIES = 3;

/** A short stable id for a chart's toggles, from what it shows. */
function chartId(text: string): string {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619);
  return `c${(hash >>> 0).toString(36)}`;
}

interface LineChartOptions {
  title: string;
  xLabels: readonly string[];
  series: ReadonlyArray<{ name: string; values: ReadonlyArray<number | undefined> }>;
  yLabel: string;
}

/**
 * A line chart of series over shared x labels (values 0–100) in categorical colours; every point
 * has its value as a tooltip, written beside it too when there are at most three series. With
 * several series the chart comes with a legend of checkboxes that hide and show each series —
 * CSS only, so it works in a single-file report with no script.
 */
export function renderLineChart(options: LineChartOptions): string {
  const svg = lineChartSvg(options);
  if (options.series.length < 2) return svg;
  const id = chartId(JSON.stringify([options.title, options.xLabels, options.series.map((s) => s.name)]));
  const inputs = options.series
    .map((_, index) => `<input type="checkbox" id="${id}-${index}" class="series-toggle" checked>`)
    .join('');
  const rules = options.series
    .map(
      (_, index) =>
        `#${id}-${index}:not(:checked)~svg .${id}-s${index}{display:none}#${id}-${index}:not(:checked)~.legend label[for=${id}-${index}]{opacity:.45;text-decoration:line-through}`,
    )
    .join('');
  const legend = options.series
    .map(
      (series, index) =>
        `<label for="${id}-${index}"><span class="key" style="background:${seriesColour(index)}"></span>${escapeHtml(series.name)}</label>`,
    )
    .join('');
  return `<span class="toggle-chart"><style>.toggle-chart .series-toggle{position:absolute;opacity:0;width:1px;height:1px}.toggle-chart .legend{display:flex;flex-wrap:wrap;gap:.2rem .8rem;font-size:.8rem;max-width:40rem}.toggle-chart .legend label{cursor:pointer}.toggle-chart .key{display:inline-block;width:.7rem;height:.7rem;margin-right:.3rem}${rules}</style>${inputs}${svg.replace(/class="series-(\d+)"/g, `class="${id}-s$1"`)}<span class="legend">${legend}</span></span>`;
}

function lineChartSvg(options: LineChartOptions): string {
  const plotWidth = Math.max(240, options.xLabels.length * 60);
  const plotHeight = 180;
  const left = 44;
  const top = 46;
  const width = left + plotWidth + 24;
  // One series names itself under the chart; several have the legend of toggles beside it.
  const single = options.series.length === 1 ? options.series[0]!.name : undefined;
  const height = top + plotHeight + 36 + (single === undefined ? 0 : 16);
  const x = (index: number) =>
    left +
    (options.xLabels.length === 1 ? plotWidth / 2 : (index * plotWidth) / (options.xLabels.length - 1));
  const y = (value: number) => top + plotHeight - (value / 100) * plotHeight;
  const labelled = options.series.length <= LABELLED_SERIES;
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
    const colour = seriesColour(seriesIndex);
    const points = series.values.flatMap((value, index) =>
      value === undefined ? [] : [{ x: x(index), y: y(value), value, label: options.xLabels[index]! }],
    );
    parts.push(`<g class="series-${seriesIndex}">`);
    if (points.length > 1)
      parts.push(
        `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.map((point) => `${point.x},${point.y}`).join(' ')}"/>`,
      );
    for (const point of points) {
      parts.push(
        `<circle cx="${point.x}" cy="${point.y}" r="3.5" fill="${colour}"><title>${escapeHtml(`${series.name} — ${point.label}: ${point.value.toFixed(2)}`)}</title></circle>`,
      );
      if (labelled)
        parts.push(
          `<text x="${point.x}" y="${point.y - 6}" font-size="9" text-anchor="middle">${point.value.toFixed(1)}</text>`,
        );
    }
    parts.push('</g>');
  });
  if (single !== undefined)
    parts.push(
      `<text x="${left}" y="${height - 8}" font-size="11" fill="${seriesColour(0)}">${escapeHtml(single)}</text>`,
    );
  parts.push('</svg>');
  return parts.join('');
}
