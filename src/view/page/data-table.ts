import { el } from './dom.js';

/** One column of a data table. */
export interface Column<Row> {
  label: string;
  /** The value sorted, searched and exported: numbers sort as numbers, null ("—") last. */
  value: (row: Row) => string | number | null;
  /** What the cell shows (default: the value, "—" for null). */
  cell?: (row: Row) => Node | string | Array<Node | string>;
  /** Attributes of the cell (a class, a data-column key). */
  attributes?: (row: Row) => Record<string, string>;
  /** The row's header cell (the model, the sample). */
  rowHeader?: boolean;
}

export interface DataTableOptions<Row> {
  id: string;
  caption?: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  /** The exported files' name (without extension). */
  name: string;
  /** The column the rows come sorted by, ascending (a leaderboard's rank); none by default. */
  sortedBy?: number;
  /** Set on each row (a data-group, for instance). */
  rowAttributes?: (row: Row) => Record<string, string>;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compareValues(left: string | number | null, right: string | number | null): number {
  if (left === null || right === null) return left === right ? 0 : left === null ? 1 : -1;
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return collator.compare(String(left), String(right));
}

/** A CSV field: quoted when needed; text that a spreadsheet would run as a formula is prefixed with '. */
function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = el('a', { href: url, download: name });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** CSV and JSON buttons that download the rows a table shows, in the order shown. */
function exportButtons<Row>(
  name: string,
  columns: readonly Column<Row>[],
  exported: () => Array<Array<string | number | null>>,
): HTMLElement[] {
  const labels = columns.map((column) => column.label);
  const csv = () =>
    [labels.map(csvField), ...exported().map((values) => values.map(csvField))]
      .map((line) => line.join(','))
      .join('\r\n');
  const json = () =>
    JSON.stringify(
      exported().map((values) => Object.fromEntries(labels.map((label, index) => [label, values[index]]))),
      null,
      2,
    );
  return [
    el('button', {
      type: 'button',
      text: 'CSV',
      title: 'Download the rows shown as CSV',
      onclick: () => download(`${name}.csv`, 'text/csv', csv()),
    }),
    el('button', {
      type: 'button',
      text: 'JSON',
      title: 'Download the rows shown as JSON',
      onclick: () => download(`${name}.json`, 'application/json', json()),
    }),
  ];
}

/**
 * A table that sorts by any column (click its header; numbers as numbers), filters its rows by
 * text in any column (any case, CJK included) and exports the rows it shows, in the order shown,
 * as CSV or JSON.
 */
export function dataTable<Row>(options: DataTableOptions<Row>): HTMLElement {
  const { columns } = options;
  const entries = options.rows.map((row) => {
    const values = columns.map((column) => column.value(row));
    const cells = columns.map((column, index) => {
      const shown = column.cell ? column.cell(row) : values[index] === null ? '—' : String(values[index]);
      return el(
        column.rowHeader ? 'th' : 'td',
        { ...(column.rowHeader ? { scope: 'row' } : {}), ...column.attributes?.(row) },
        shown,
      );
    });
    const search = values
      .map((value) => (value === null ? '' : String(value)))
      .join('\u0000')
      .toLocaleLowerCase();
    return { values, search, node: el('tr', { ...options.rowAttributes?.(row) }, cells) };
  });
  let shown = entries;
  let sortColumn = options.sortedBy ?? -1;
  let descending = false;
  const body = el(
    'tbody',
    {},
    entries.map((entry) => entry.node),
  );
  const counter = el('span', { class: 'muted', 'aria-live': 'polite' });
  const headers = columns.map((column, index) =>
    el(
      'th',
      { scope: 'col', 'aria-sort': index === sortColumn ? 'ascending' : 'none' },
      el('button', { type: 'button', class: 'sort', onclick: () => sortBy(index), text: column.label }),
    ),
  );
  const filter = el('input', {
    type: 'search',
    placeholder: 'Filter rows',
    'aria-label': `Filter ${options.caption ?? 'the table'}`,
    oninput: () => update(),
  });
  function update(): void {
    const query = filter.value.trim().toLocaleLowerCase();
    shown = entries.filter((entry) => !query || entry.search.includes(query));
    if (sortColumn >= 0) {
      const direction = descending ? -1 : 1;
      shown = [...shown].sort(
        (left, right) => direction * compareValues(left.values[sortColumn]!, right.values[sortColumn]!),
      );
    }
    body.replaceChildren(...shown.map((entry) => entry.node));
    counter.textContent = shown.length === entries.length ? '' : `${shown.length} of ${entries.length} rows`;
  }
  function sortBy(index: number): void {
    descending = sortColumn === index ? !descending : false;
    sortColumn = index;
    for (const [position, header] of headers.entries())
      header.setAttribute(
        'aria-sort',
        position === index ? (descending ? 'descending' : 'ascending') : 'none',
      );
    update();
  }
  const toolbar = el(
    'div',
    { class: 'controls table-tools' },
    filter,
    exportButtons(options.name, columns, () => shown.map((entry) => entry.values)),
    counter,
  );
  const table = el(
    'table',
    { id: options.id },
    options.caption ? el('caption', { text: options.caption }) : null,
    el('thead', {}, el('tr', {}, headers)),
    body,
  );
  return el('div', { class: 'data-table' }, toolbar, el('div', { class: 'scroll' }, table));
}
