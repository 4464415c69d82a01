import { describe, expect, it } from 'vitest';
import { contrastRatio, SERIES_COLOURS, seriesColour, textOn, viridis } from './color-scale.js';

describe('colour scale', () => {
  it('computes WCAG contrast ratios (black on white is 21:1)', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('writes every heatmap value with text of at least 4.5:1 contrast on its fill (WCAG AA)', () => {
    let worst = 21;
    for (let step = 0; step <= 1000; step++) {
      const value = step / 1000;
      worst = Math.min(worst, contrastRatio(viridis(value), textOn(value)));
    }
    expect(worst).toBeGreaterThanOrEqual(4.5);
  });
});

/** Machado, Oliveira and Fernandes (2009), severity 1: linear RGB as a dichromat sees it. */
const DICHROMACY: Record<string, number[][]> = {
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

const linear = (hex: string) =>
  [1, 3, 5].map((offset) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });

/** CIELAB (D65) of a linear RGB colour. */
function lab([red, green, blue]: number[]): number[] {
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((0.4124 * red! + 0.3576 * green! + 0.1805 * blue!) / 0.95047);
  const y = f(0.2126 * red! + 0.7152 * green! + 0.0722 * blue!);
  const z = f((0.0193 * red! + 0.1192 * green! + 0.9505 * blue!) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

/** The smallest CIELAB distance between two colours of a palette, as seen with a vision. */
function closest(palette: readonly string[], matrix: number[][] | undefined): number {
  const seen = palette.map((hex) => {
    const rgb = linear(hex);
    return lab(
      matrix
        ? matrix.map((row) =>
            Math.min(
              1,
              Math.max(
                0,
                row.reduce((sum, k, i) => sum + k * rgb[i]!, 0),
              ),
            ),
          )
        : rgb,
    );
  });
  let smallest = Number.POSITIVE_INFINITY;
  for (const [index, first] of seen.entries())
    for (const second of seen.slice(index + 1))
      smallest = Math.min(smallest, Math.hypot(...first.map((value, axis) => value - second[axis]!)));
  return smallest;
}

describe('series colours', () => {
  it('tells ten series apart with normal vision and each dichromacy (ΔE at least 10)', () => {
    expect(SERIES_COLOURS).toHaveLength(10);
    for (const [vision, matrix] of [['normal', undefined] as const, ...Object.entries(DICHROMACY)])
      expect(closest(SERIES_COLOURS, matrix), vision).toBeGreaterThanOrEqual(10);
    // The palette before: its orange and dark yellow were one colour to a protanope.
    const before = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#b8a500', '#7f7f7f'];
    expect(closest(before, DICHROMACY.protanopia)).toBeLessThan(10);
  });

  it('stands out from the light and the dark page (at least 2:1), repeating after ten', () => {
    for (const colour of SERIES_COLOURS) {
      expect(contrastRatio(colour, '#ffffff'), colour).toBeGreaterThanOrEqual(2);
      expect(contrastRatio(colour, '#121212'), colour).toBeGreaterThanOrEqual(2);
    }
    expect(seriesColour(10)).toBe(SERIES_COLOURS[0]);
  });
});
