/** What a report prints of a score's interval: its bounds and how they were made. */
export interface IntervalLike {
  lower: number;
  upper: number;
  method: string;
  resamples: number | null;
  seed: number | null;
  /** Independent units resampled (needles, patients, samples). */
  units?: number;
}

/** `87.1 [84.0, 90.2]`: a score and its interval at `digits` decimals; `—` for no score, the score alone without an interval. */
export function intervalText(
  value: number | null | undefined,
  interval: IntervalLike | null | undefined,
  digits = 1,
): string {
  if (value === null || value === undefined) return '—';
  if (!interval) return value.toFixed(digits);
  return `${value.toFixed(digits)} [${interval.lower.toFixed(digits)}, ${interval.upper.toFixed(digits)}]`;
}

/** How a report's intervals were made, for its caption: `95% intervals: … (bootstrap B = 1000, seed 20260527)`. */
export function intervalsLegend(
  intervals: ReadonlyArray<IntervalLike | null | undefined>,
  clustering: string,
): string {
  const bootstrap = intervals.find((interval) => interval?.method === 'bootstrap');
  const settings = bootstrap ? ` (bootstrap B = ${bootstrap.resamples}, seed ${bootstrap.seed})` : '';
  return `95% intervals: Wilson for a proportion of independent samples, else a percentile bootstrap ${clustering}${settings}`;
}

/** One score of a run for a long intervals table. */
export interface IntervalRow {
  label: string;
  score: string;
  value: number | null | undefined;
  interval: IntervalLike | null | undefined;
}

/**
 * A long table of scores with their intervals, a row per run and score (wide tables of intervals
 * would not fit a terminal): Model, Score, the value [lower, upper], and how the interval was made;
 * its title ends with `intervalsLegend`. Undefined when there is no row (no intervals computed).
 */
export function intervalsLongTable(options: {
  name: string;
  heading: string;
  /** How the bootstrap resamples, for the legend (`over queries`). */
  clustering: string;
  rows: readonly IntervalRow[];
  digits?: number;
}): { name: string; title: string; header: string[]; rows: string[][] } | undefined {
  if (options.rows.length === 0) return undefined;
  const legend = intervalsLegend(
    options.rows.map((row) => row.interval),
    options.clustering,
  );
  let previous = '';
  return {
    name: options.name,
    title: `${options.heading} ${legend}`,
    header: ['Model', 'Score', 'Value [95% interval]', 'Interval'],
    rows: options.rows.map((row) => {
      const label = row.label === previous ? '' : row.label;
      previous = row.label;
      const method = row.interval ? `${row.interval.method}, ${row.interval.units ?? '?'} units` : '—';
      return [label, row.score, intervalText(row.value, row.interval, options.digits ?? 2), method];
    }),
  };
}
