import type { Interval } from './interval.js';

/** The interval multiplied by a factor (a fraction shown ×100), its counts and method unchanged. */
export function scaleInterval(interval: Interval, factor: number): Interval {
  return {
    ...interval,
    estimate: interval.estimate * factor,
    lower: interval.lower * factor,
    upper: interval.upper * factor,
  };
}

/** `87.1 [84.0, 90.2]`: the estimate and its bounds at `digits` decimals (×`factor`). */
export function formatInterval(
  interval: Interval,
  options: { digits?: number; factor?: number } = {},
): string {
  const { digits = 1, factor = 1 } = options;
  const show = (value: number) => (Number.isFinite(value) ? (value * factor).toFixed(digits) : '—');
  return `${show(interval.estimate)} [${show(interval.lower)}, ${show(interval.upper)}]`;
}
