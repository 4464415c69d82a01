import { seriesColour, textOn, viridis, WIDE_INTERVAL } from '../../report/color-scale.js';
import type { Grid, Interval } from '../shared/view-types.js';
import { el, fraction, href, svg } from './dom.js';
import { legendKey, markerOf, seriesStyle } from './series-style.js';

const estimateText = (estimate: Interval) =>
  estimate.n === 0
    ? '—'
    : `${fraction(estimate.estimate)} [${fraction(estimate.lower)}, ${fraction(estimate.upper)}] n=${estimate.n}`;

/** "Depth \\ length": the corner of a grid, its rows' name over its columns'. */
const cornerText = (grid: Grid) =>
  `${grid.rows.name.charAt(0).toUpperCase()}${grid.rows.name.slice(1)} \\ ${grid.columns.name}`;

/** The suite's grid of a group (MedOdyssey: depth × length): each cell its value, interval and a link to its samples. */
export function heatmap(runId: string, group: string, grid: Grid): HTMLElement {
  const { rows, columns } = grid;
  return el(
    'div',
    { class: 'scroll' },
    el(
      'table',
      { class: 'heatmap', 'aria-label': `${group} ${grid.metric} by ${rows.name} and ${columns.name}` },
      el('caption', {
        text: `${grid.metric.toUpperCase()} (%) by ${rows.name} × ${columns.name}, 95% bootstrap interval; dashed border: interval ≥ ${100 * WIDE_INTERVAL} points wide`,
      }),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { text: cornerText(grid) }),
          columns.values.map((column) => el('th', { scope: 'col', text: `${column}${columns.unit ?? ''}` })),
        ),
      ),
      el(
        'tbody',
        {},
        rows.values.map((row) =>
          el(
            'tr',
            {},
            el('th', { scope: 'row', text: `${row}${rows.unit ?? ''}` }),
            columns.values.map((column) => {
              const cell = grid.cells[`${row}|${column}`];
              if (!cell) return el('td', { class: 'cell', text: '—', title: 'Nothing counted here' });
              // The text takes the colour that stays readable on the cell's fill (WCAG AA); a wide
              // interval (n = 20 a cell in NIAH) is marked by a dashed border and said in the tooltip.
              const wide = cell.n > 0 && cell.upper - cell.lower >= WIDE_INTERVAL;
              return el(
                'td',
                {
                  class: wide ? 'cell wide' : 'cell',
                  style: { background: viridis(cell.estimate), color: textOn(cell.estimate) },
                },
                el(
                  'a',
                  {
                    href: href('samples', {
                      run: runId,
                      group,
                      [columns.param]: column,
                      [rows.param]: row,
                    }),
                    'data-cell': `${row}|${column}`,
                    title: wide
                      ? `${estimateText(cell)}; 95% interval ≥ ${100 * WIDE_INTERVAL} points wide`
                      : estimateText(cell),
                  },
                  fraction(cell.estimate),
                  el('span', { class: 'ci', text: `[${fraction(cell.lower)}, ${fraction(cell.upper)}]` }),
                ),
              );
            }),
          ),
        ),
      ),
    ),
  );
}

/** Means with 95% intervals along an axis (length levels, MRR cut-offs); each point has a tooltip. */
export function lineChart(
  title: string,
  points: Array<Interval & { label: string | number }>,
  xLabel: string,
): SVGElement {
  const width = 520;
  const height = 240;
  const left = 48;
  const top = 30;
  const plotWidth = width - left - 28;
  const plotHeight = height - top - 48;
  const x = (index: number) =>
    left + (points.length === 1 ? plotWidth / 2 : (index * plotWidth) / (points.length - 1));
  const y = (value: number) => top + plotHeight - value * plotHeight;
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: 'chart',
    role: 'img',
    'aria-label': title,
  });
  chart.append(svg('text', { x: 8, y: 18, class: 'chart-title' }, title));
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    chart.append(svg('line', { x1: left, x2: left + plotWidth, y1: y(tick), y2: y(tick), class: 'grid' }));
    chart.append(
      svg('text', { x: left - 6, y: y(tick) + 4, class: 'tick', 'text-anchor': 'end' }, tick * 100),
    );
  }
  chart.append(
    svg('polyline', {
      points: points.map((point, index) => `${x(index)},${y(point.estimate)}`).join(' '),
      class: 'series-line',
      stroke: seriesColour(0),
    }),
  );
  points.forEach((point, index) => {
    chart.append(
      svg('line', { x1: x(index), x2: x(index), y1: y(point.lower), y2: y(point.upper), class: 'whisker' }),
    );
    const dot = svg('circle', { cx: x(index), cy: y(point.estimate), r: 4, fill: seriesColour(0) });
    dot.append(svg('title', {}, `${xLabel} ${point.label}: ${estimateText(point)}`));
    chart.append(dot);
    chart.append(
      svg(
        'text',
        { x: x(index), y: top + plotHeight + 16, class: 'tick', 'text-anchor': 'middle' },
        point.label,
      ),
    );
    chart.append(
      svg('text', { x: x(index) + 5, y: y(point.estimate) - 6, class: 'value' }, fraction(point.estimate)),
    );
  });
  chart.append(
    svg('text', { x: left + plotWidth / 2, y: height - 8, class: 'tick', 'text-anchor': 'middle' }, xLabel),
  );
  return chart;
}

export interface RadarSeries {
  name: string;
  /** Values 0–100 per axis; null: missing (left out, never drawn as 0). */
  values: Array<number | null>;
}

/**
 * Runs across a suite's datasets (0–100 per axis). Each series can be hidden from its legend
 * button; every point has a tooltip; a missing value is left out, the polygon joining the others.
 */
export function radarChart(
  title: string,
  axes: readonly string[],
  series: readonly RadarSeries[],
): HTMLElement {
  const size = 460;
  const centre = size / 2;
  const radius = 150;
  const chart = svg('svg', {
    // Room on both sides for the axis labels, which run outward from the circle.
    viewBox: `-110 0 ${size + 220} ${size + 10}`,
    class: 'chart radar',
    role: 'img',
    'aria-label': title,
  });
  const point = (index: number, value: number) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * index) / axes.length;
    return [
      centre + Math.cos(angle) * radius * value,
      centre + 14 + Math.sin(angle) * radius * value,
    ] as const;
  };
  for (const ring of [0.25, 0.5, 0.75, 1])
    chart.append(
      svg('polygon', {
        points: axes.map((_, index) => point(index, ring).join(',')).join(' '),
        class: 'grid',
      }),
    );
  axes.forEach((axis, index) => {
    const [x, y] = point(index, 1.16);
    const anchor = Math.abs(x - centre) < 8 ? 'middle' : x > centre ? 'start' : 'end';
    const single = series.length === 1 ? series[0]!.values[index] : undefined;
    const label = single === undefined ? axis : `${axis} ${single === null ? '—' : single.toFixed(1)}`;
    chart.append(svg('text', { x, y: y + 4, class: 'tick', 'text-anchor': anchor }, label));
  });
  const layers = series.map((entry, position) => {
    const { colour, dash } = seriesStyle(position);
    const layer = svg('g', { 'data-series': entry.name });
    const present = entry.values.flatMap((value, index) =>
      value === null ? [] : [{ at: point(index, value / 100), value, axis: axes[index]! }],
    );
    layer.append(
      svg('polygon', {
        points: present.map((item) => item.at.join(',')).join(' '),
        class: 'series-area',
        stroke: colour,
        fill: colour,
        'stroke-dasharray': dash || undefined,
      }),
    );
    for (const item of present) {
      // Each series its own marker: told apart without telling colours apart.
      const dot = markerOf(position, item.at[0], item.at[1], 4.5);
      dot.append(svg('title', {}, `${entry.name} — ${item.axis}: ${item.value.toFixed(2)}`));
      layer.append(dot);
    }
    chart.append(layer);
    return layer;
  });
  const legend = series.length > 1 ? legendOf(series, layers) : null;
  return el('figure', { class: 'radar-figure' }, el('figcaption', { text: title }), chart, legend);
}

/** One button per series: pressed, the series shows; released, it is hidden. */
function legendOf(series: readonly RadarSeries[], layers: readonly SVGElement[]) {
  return el(
    'div',
    { class: 'legend', role: 'group', 'aria-label': 'Series shown' },
    series.map((entry, position) => {
      const layer = layers[position]!;
      const button = el(
        'button',
        { type: 'button', 'aria-pressed': 'true', class: 'legend-item' },
        legendKey(position),
        entry.name,
      );
      button.addEventListener('click', () => {
        const shown = button.getAttribute('aria-pressed') !== 'true';
        button.setAttribute('aria-pressed', String(shown));
        layer.classList.toggle('hidden', !shown);
      });
      return button;
    }),
  );
}
