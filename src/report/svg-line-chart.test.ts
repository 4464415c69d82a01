import { describe, expect, it } from 'vitest';
import { renderLineChart } from './svg-line-chart.js';

const series = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    name: `model-${index}`,
    values: [10 * index, undefined, 50],
  }));

describe('line chart', () => {
  it('ten series: a legend of toggles (one CSS rule each), tooltips on every point, no written labels', () => {
    const html = renderLineChart({
      title: 'KG F1',
      xLabels: ['4k', '8k', '16k'],
      series: series(10),
      yLabel: '%',
    });
    expect(html.match(/<input type="checkbox"/g)).toHaveLength(10);
    expect(html.match(/:not\(:checked\)~svg \.c[0-9a-z]+-s\d+\{display:none\}/g)).toHaveLength(10);
    // Two values per series (the missing one is left out, not drawn as 0).
    expect(html.match(/<circle /g)).toHaveLength(20);
    expect(html).toContain('<title>model-9 — 16k: 50.00</title>');
    expect(html).not.toMatch(/<text[^>]*font-size="9"/);
  });

  it('a few series keep their written values; one series names itself and has no toggles', () => {
    expect(
      renderLineChart({ title: 't', xLabels: ['a', 'b', 'c'], series: series(2), yLabel: '%' }).match(
        /font-size="9"/g,
      ),
    ).toHaveLength(4);
    const one = renderLineChart({ title: 't', xLabels: ['a', 'b', 'c'], series: series(1), yLabel: '%' });
    expect(one).not.toContain('<input');
    expect(one).toContain('>model-0</text>');
  });
});
