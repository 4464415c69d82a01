import { seriesColour } from '../../report/color-scale.js';
import { svg } from './dom.js';

/** Unit outlines of the markers (radius about 1), after the circle. */
const arm = 0.38;
const star = Array.from({ length: 10 }, (_, index) => {
  const angle = -Math.PI / 2 + (index * Math.PI) / 5;
  const reach = index % 2 === 0 ? 1.3 : 0.55;
  return [Math.cos(angle) * reach, Math.sin(angle) * reach] as const;
});
const plus = [
  [-arm, -1.1],
  [arm, -1.1],
  [arm, -arm],
  [1.1, -arm],
  [1.1, arm],
  [arm, arm],
  [arm, 1.1],
  [-arm, 1.1],
  [-arm, arm],
  [-1.1, arm],
  [-1.1, -arm],
  [-arm, -arm],
] as const;
const OUTLINES: Record<string, ReadonlyArray<readonly [number, number]>> = {
  square: [
    [-0.9, -0.9],
    [0.9, -0.9],
    [0.9, 0.9],
    [-0.9, 0.9],
  ],
  triangle: [
    [0, -1.25],
    [1.1, 0.8],
    [-1.1, 0.8],
  ],
  diamond: [
    [0, -1.3],
    [1.1, 0],
    [0, 1.3],
    [-1.1, 0],
  ],
  'triangle-down': [
    [0, 1.25],
    [1.1, -0.8],
    [-1.1, -0.8],
  ],
  plus,
  cross: plus.map(([x, y]) => [(x - y) * Math.SQRT1_2, (x + y) * Math.SQRT1_2] as const),
  star,
  hexagon: Array.from({ length: 6 }, (_, index) => {
    const angle = (index * Math.PI) / 3;
    return [Math.cos(angle) * 1.1, Math.sin(angle) * 1.1] as const;
  }),
  'triangle-right': [
    [1.25, 0],
    [-0.8, 1.1],
    [-0.8, -1.1],
  ],
};

/** One marker per series for the first ten: a second channel beside the colour. */
export const SERIES_MARKERS: readonly string[] = ['circle', ...Object.keys(OUTLINES)];
/** Dash patterns of the series' lines (solid first), a third channel. */
export const SERIES_DASHES: readonly string[] = ['', '8 4', '3 3', '10 3 2 3', '2 6'];

/** How the n-th series of a chart is drawn: colour, marker and dash (repeating after ten, five). */
export function seriesStyle(index: number) {
  return {
    colour: seriesColour(index),
    marker: SERIES_MARKERS[index % SERIES_MARKERS.length]!,
    dash: SERIES_DASHES[index % SERIES_DASHES.length]!,
  };
}

/** A series' marker centred on (x, y), about `size` in radius, filled with its colour. */
export function markerOf(index: number, x: number, y: number, size: number): SVGElement {
  const { colour, marker } = seriesStyle(index);
  const outline = OUTLINES[marker];
  const attributes = { class: 'marker', fill: colour, 'data-marker': marker };
  if (!outline) return svg('circle', { ...attributes, cx: x, cy: y, r: size });
  const points = outline.map(([dx, dy]) => `${(x + dx * size).toFixed(2)},${(y + dy * size).toFixed(2)}`);
  return svg('polygon', { ...attributes, points: points.join(' ') });
}

/** The legend's key of a series: a short line in its colour and dash with its marker. */
export function legendKey(index: number): SVGElement {
  const { colour, dash } = seriesStyle(index);
  const key = svg('svg', {
    viewBox: '0 0 30 12',
    width: 30,
    height: 12,
    class: 'key',
    'aria-hidden': 'true',
  });
  key.append(
    svg('line', {
      x1: 1,
      x2: 29,
      y1: 6,
      y2: 6,
      stroke: colour,
      'stroke-width': 2,
      'stroke-dasharray': dash || undefined,
    }),
    markerOf(index, 15, 6, 4),
  );
  return key;
}
