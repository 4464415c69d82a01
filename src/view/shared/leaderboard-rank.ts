/** The suite's own average column (MedEureka's), which the viewer's Average replaces. */
export const SUITE_AVERAGE = 'Avg.';

/** A leaderboard row with the viewer's average of its dataset columns and its rank. */
export interface RankedRow<Row> {
  row: Row;
  /** The mean of every dataset column; null when any is missing ("—"). */
  average: number | null;
  /** 1 for the highest average, equal averages sharing a rank; null without an average. */
  rank: number | null;
}

interface BoardRow {
  label: string;
  values: Record<string, Record<string, number | null>>;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The columns an average is taken over: those with a value in at least one row. A column no run
 * has (the published release holds no En.Counting) would leave every row without an average.
 */
export function averagedColumns(
  rows: readonly BoardRow[],
  variant: string,
  columns: readonly string[],
): string[] {
  return columns.filter((column) =>
    rows.some((row) => {
      const value = row.values[variant]?.[column];
      return value !== null && value !== undefined && !Number.isNaN(value);
    }),
  );
}

/**
 * A leaderboard's rows for one metric variant, best first: by the mean of the given dataset
 * columns (descending; a row missing any column has no average and comes after every ranked
 * row), ties by label.
 */
export function rankRows<Row extends BoardRow>(
  rows: readonly Row[],
  variant: string,
  columns: readonly string[],
): RankedRow<Row>[] {
  const averaged = rows.map((row) => {
    const values = columns.map((column) => row.values[variant]?.[column] ?? null);
    const complete = values.length > 0 && values.every((value) => value !== null && !Number.isNaN(value));
    const average = complete
      ? (values as number[]).reduce((sum, value) => sum + value, 0) / values.length
      : null;
    return { row, average };
  });
  averaged.sort(
    (left, right) =>
      (right.average ?? Number.NEGATIVE_INFINITY) - (left.average ?? Number.NEGATIVE_INFINITY) ||
      collator.compare(left.row.label, right.row.label),
  );
  return averaged.map((entry) => ({
    ...entry,
    rank:
      entry.average === null
        ? null
        : 1 + averaged.filter((other) => other.average !== null && other.average > entry.average!).length,
  }));
}
