import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../metrics/uncertainty/index.js';
import { WIDE_INTERVAL } from './color-scale.js';
import { heatmapUncertainty, renderHeatmap } from './svg-heatmap.js';

describe('heatmap cells show their uncertainty', () => {
  it('n = 20: Wilson at 20/20 is narrow, at 16/20 wide (its interval spans ≥ 30 points)', () => {
    expect(WIDE_INTERVAL).toBe(0.3);
    const full = heatmapUncertainty(1, wilsonInterval(20, 20));
    expect(full).toEqual({ interval: '95% interval 84–100%', wide: false });
    const eighty = heatmapUncertainty(0.8, wilsonInterval(16, 20));
    expect(eighty).toEqual({ interval: '95% interval 58–92%', wide: true });
    expect(heatmapUncertainty(null, wilsonInterval(0, 0))).toEqual({});
    expect(heatmapUncertainty(0.5, undefined)).toEqual({});
  });

  it('a wide cell gets a corner mark and the caption says what it means; the tooltip holds the interval', () => {
    const svg = renderHeatmap({
      title: 'T',
      rowLabels: ['0%'],
      columnLabels: ['4k', '8k'],
      cells: [
        [
          { value: 1, label: '20/20', ...heatmapUncertainty(1, wilsonInterval(20, 20)) },
          { value: 0.8, label: '16/20', ...heatmapUncertainty(0.8, wilsonInterval(16, 20)) },
        ],
      ],
      rowAxis: 'depth',
      columnAxis: 'length',
    });
    expect(svg.match(/class="wide"/g)).toHaveLength(1);
    expect(svg).toContain('<title>0% × 8k: 16/20, 95% interval 58–92%</title>');
    expect(svg).toContain('<title>0% × 4k: 20/20, 95% interval 84–100%</title>');
    expect(svg).toContain('◥ 95% interval ≥ 30 points wide');
    const plain = renderHeatmap({
      title: 'T',
      rowLabels: ['0%'],
      columnLabels: ['4k'],
      cells: [[{ value: 1, label: '1/1' }]],
      rowAxis: 'depth',
      columnAxis: 'length',
    });
    expect(plain).not.toContain('◥');
  });
});
