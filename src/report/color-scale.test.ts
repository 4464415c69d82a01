import { describe, expect, it } from 'vitest';
import { contrastRatio, textOn, viridis } from './color-scale.js';

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
