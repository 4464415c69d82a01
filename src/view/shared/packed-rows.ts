/** Rows of objects as one list of keys and one array of values per row: the static site's run files. */
export interface PackedRows {
  columns: string[];
  values: unknown[][];
}

/** Packs objects with the same keys (absent keys come back as undefined, left out on unpacking). */
export function packRows<Row extends object>(rows: readonly Row[]): PackedRows {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return {
    columns,
    values: rows.map((row) => columns.map((column) => (row as Record<string, unknown>)[column] ?? null)),
  };
}

/** The objects back: each key of `columns` with its value (a packed null stays null). */
export function unpackRows<Row>(packed: PackedRows): Row[] {
  return packed.values.map(
    (values) => Object.fromEntries(packed.columns.map((column, index) => [column, values[index]])) as Row,
  );
}
