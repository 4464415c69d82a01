/** Viridis anchors: perceptually uniform and readable with the common colour-vision deficiencies. */
const VIRIDIS = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'];

function channel(hex: string, offset: number): number {
  return Number.parseInt(hex.slice(offset, offset + 2), 16);
}

/** Colour of a value in [0, 1] on the viridis scale. */
export function viridis(value: number): string {
  const clamped = Math.min(1, Math.max(0, value));
  const position = clamped * (VIRIDIS.length - 1);
  const lower = Math.floor(position);
  const upper = Math.min(VIRIDIS.length - 1, lower + 1);
  const fraction = position - lower;
  const mix = (offset: number) =>
    Math.round(
      channel(VIRIDIS[lower]!, offset) * (1 - fraction) + channel(VIRIDIS[upper]!, offset) * fraction,
    );
  return `#${[1, 3, 5].map((offset) => mix(offset).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [red, green, blue] = [1, 3, 5].map((offset) => {
    const value = channel(hex, offset) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * red! + 0.7152 * green! + 0.0722 * blue!;
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(first: string, second: string): number {
  const [light, dark] = [luminance(first), luminance(second)].sort((left, right) => right - left);
  return (light! + 0.05) / (dark! + 0.05);
}

/** Black or white, whichever contrasts more with the viridis fill of the value (at least 4.6:1, WCAG AA). */
export function textOn(value: number): string {
  const fill = viridis(value);
  return contrastRatio(fill, '#000000') >= contrastRatio(fill, '#ffffff') ? '#000000' : '#ffffff';
}

/**
 * Categorical colours for up to ten series, told apart with normal vision and with protanopia,
 * deuteranopia and tritanopia alike (simulated, at least 10 CIELAB ΔE between any two) and seen
 * on light and dark backgrounds (at least 2:1 on white and on #121212): Okabe–Ito's blue,
 * vermillion, sky blue, reddish purple, orange and bluish green with Paul Tol's wine, green, olive
 * and purple (Okabe–Ito's black and yellow vanish on a dark and a light background). Ordered so
 * that each next colour is the farthest from those before it. Charts add a marker and a dash per
 * series as a second channel.
 */
export const SERIES_COLOURS: readonly string[] = [
  '#0072b2',
  '#d55e00',
  '#882255',
  '#56b4e9',
  '#cc79a7',
  '#e69f00',
  '#009e73',
  '#117733',
  '#999933',
  '#aa3377',
];

/** The colour of the n-th series of a chart (repeating after ten). */
export function seriesColour(index: number): string {
  return SERIES_COLOURS[index % SERIES_COLOURS.length]!;
}

/**
 * A heatmap cell's 95% interval is wide when it spans at least this much of [0, 1] (30 points;
 * n = 20 a cell: Wilson at 16/20 spans 34): the report's and the viewer's heatmaps mark such cells.
 */
export const WIDE_INTERVAL = 0.3;
