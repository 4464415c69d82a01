/** A report figure: percentages with two decimals (and their interval where given), counts as they are. */
export function figureText(figure: {
  value: number | null;
  unit: '%' | 'count';
  interval?: { lower: number; upper: number };
}): string {
  if (figure.value === null) return '—';
  const { interval } = figure;
  if (figure.unit !== '%') return String(figure.value);
  return interval
    ? `${figure.value.toFixed(2)} [${interval.lower.toFixed(2)}, ${interval.upper.toFixed(2)}]`
    : figure.value.toFixed(2);
}
