import { describe, expect, it } from 'vitest';
import { renderRadar } from './svg-radar.js';

describe('renderRadar', () => {
  it('leaves a missing value out of the polygon instead of drawing it at 0', () => {
    const svg = renderRadar({
      title: 't',
      axes: ['A', 'B', 'C', 'D'],
      series: [{ name: 'm', values: [50, undefined, 50, 0] }],
    });
    const points = /<polygon points="([^"]*)" fill="#/.exec(svg)![1]!.split(' ');
    // Three vertices: A and C at half the radius, D at the centre (a real 0); B is not drawn.
    expect(points).toHaveLength(3);
    expect(points).toEqual(['260,125', '260,275', '260,200']);
    expect(svg.match(/<circle /g)).toHaveLength(3);
  });
});
