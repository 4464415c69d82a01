import type { Interval } from './interval.js';
import { wilsonInterval } from './wilson.js';

const TOLERANCE = 1e-12;
const near = (value: number, target: number) => Math.abs(value - target) <= TOLERANCE;

/**
 * The interval of a statistic bounded by [0, 1] (a mean of scores in [0, 1], a micro P/R/F1, a
 * mean of such means) whose percentile bootstrap collapsed at an end: every unit scored 0 (micro
 * F1 with tp = 0 throughout) or every unit 1 (a MedEureka 100%), so every resample repeats the
 * estimate and [x, x] would claim a certainty U units cannot give. It becomes the Wilson interval
 * of 0 of U (or U of U), U the independent units — what U pass/fail units all failing (passing)
 * allow: 0 of U → [0, z²/(U + z²)], U of U → [U/(U + z²), 1]. Any other interval is returned as it is.
 */
export function endOfRangeInterval(interval: Interval): Interval {
  if (interval.method !== 'bootstrap' || interval.upper - interval.lower > TOLERANCE) return interval;
  const end = near(interval.estimate, 0) ? 0 : near(interval.estimate, 1) ? 1 : undefined;
  if (end === undefined) return interval;
  return { ...wilsonInterval(end * interval.units, interval.units, interval.level), n: interval.n };
}
