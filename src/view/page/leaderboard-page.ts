import type { RankIntervals } from '../../core/scored-task.js';
import { viridis } from '../../report/color-scale.js';
import { averagedColumns, type RankedRow, rankRows, SUITE_AVERAGE } from '../shared/leaderboard-rank.js';
import type { Leaderboard } from '../shared/view-types.js';
import { radarChart } from './charts.js';
import type { DataSource } from './data-source.js';
import { type Column, dataTable } from './data-table.js';
import { datasetIdView } from './dataset-id.js';
import { el, href, link, percent, render } from './dom.js';
import { navigation, runsById } from './navigation.js';

type Row = RankedRow<Leaderboard['rows'][number]>;
type Variant = Leaderboard['variants'][number];

/** A suite's leaderboard: one metric variant at a time, every column sortable, a radar of the runs. */
export async function leaderboardPage(source: DataSource, query: URLSearchParams): Promise<void> {
  const overview = await navigation(source);
  const suite =
    query.get('suite') || overview.suites.find((entry) => entry.runs.length > 0)?.suite || 'medodyssey';
  const entry = overview.suites.find((item) => item.suite === suite);
  const board = await source.leaderboard(suite);
  const asked = query.get('variant');
  const variant = asked ? board.variants.find((item) => item.key === asked) : board.variants[0];
  const heading = el('h1', { text: `Leaderboard — ${entry?.title ?? suite}` });
  // An unknown metric (an MRR cut-off the suite does not compute) is said, never swapped for another.
  if (asked && !variant)
    return render(
      heading,
      el('p', {
        id: 'unknown-variant',
        text: `No metric "${asked}" in this leaderboard; it has ${board.variants.map((item) => item.label).join(', ')}.`,
      }),
      link('Show the first', 'leaderboard', { suite }),
    );
  if (!variant || board.rows.length === 0)
    return render(heading, el('p', { text: 'No runs of this suite in the store.' }));
  const select = el(
    'select',
    {
      id: 'variant',
      onchange: (event: Event) => {
        location.hash = href('leaderboard', { suite, variant: (event.target as HTMLSelectElement).value });
      },
    },
    board.variants.map((item) =>
      el('option', { value: item.key, text: item.label, selected: item.key === variant.key }),
    ),
  );
  // The datasets' columns; the viewer's Average (every column present, or "—") replaces a suite's own.
  const axes = variant.columns.filter((column) => column.key !== SUITE_AVERAGE);
  const averaged = averagedColumns(
    board.rows,
    variant.key,
    axes.map((column) => column.key),
  );
  const rows = rankRows(board.rows, variant.key, averaged);
  const ranking = await source.ranks(suite, variant.key);
  const columns = withRankColumns(boardColumns(variant, axes, runsById(overview)), ranking);
  const empty = axes.filter((column) => !averaged.includes(column.key)).map((column) => column.label);
  render(
    heading,
    el('div', { class: 'controls' }, el('label', { for: 'variant', text: 'Metric ' }), select),
    el('p', {
      class: 'muted',
      id: 'leaderboard-note',
      text: `Scores in percent; "—" where nothing was counted. Ranked by the average of the dataset columns (a run missing one has no average and no rank${empty.length > 0 ? `; ${empty.join(', ')}: no run has a value, left out of the average` : ''}). Imported rows are the published model outputs re-scored by medbench; limited rows (--limit) scored only the first samples of each task. Click a column header to sort.`,
    }),
    ranking ? rankNote(ranking) : null,
    dataTable({
      id: 'leaderboard',
      columns,
      rows,
      name: `${suite}-${variant.key}-leaderboard`,
      sortedBy: 0,
    }),
    axes.length >= 3
      ? radarChart(
          `${variant.label} across datasets`,
          axes.map((column) => column.label),
          rows.map(({ row }) => ({
            name: row.label,
            values: axes.map((column) => row.values[variant.key]?.[column.key] ?? null),
          })),
        )
      : null,
  );
}

/** A --limit run's tag, its title saying what it kept; '' for a full run. */
function limitedTag(limited: string | null | undefined): HTMLElement | string {
  return limited ? el('span', { class: 'imported', text: 'limited', title: limited }) : '';
}

/** A score in percent with its viridis swatch, and its 95% interval under it where the suite gives one; "—" where nothing was counted. */
function scoreCell(
  value: number | null | undefined,
  interval?: { lower: number; upper: number } | null,
): Node | string | Array<Node | string> {
  if (value === null || value === undefined) return '—';
  return [
    el('span', { class: 'swatch', style: { background: viridis(value / 100) }, 'aria-hidden': 'true' }),
    percent(value),
    ...(interval
      ? [
          el('br'),
          el('span', { class: 'ci', text: `[${interval.lower.toFixed(1)}–${interval.upper.toFixed(1)}]` }),
        ]
      : []),
  ];
}

/** Rank, the model (linked to its run), its dataset, its sample count, the datasets' columns and their average. */
function boardColumns(
  variant: Variant,
  axes: Variant['columns'],
  runs: ReturnType<typeof runsById>,
): Column<Row>[] {
  return [
    { label: 'Rank', value: (entry) => entry.rank },
    {
      label: 'Model',
      rowHeader: true,
      value: ({ row }) => row.label,
      cell: ({ row }) => [
        link(row.label, 'run', { id: row.runId }),
        row.imported ? el('span', { class: 'imported', text: 'imported' }) : '',
        // Scores of the first samples only: never to be read as the full run's.
        limitedTag(runs.get(row.runId)?.limited),
      ],
    },
    {
      // The dataset's id is a content hash: its first 12 characters tell datasets apart (the export has it whole).
      label: 'Dataset',
      value: ({ row }) => runs.get(row.runId)?.datasetId ?? null,
      cell: ({ row }) => {
        const id = runs.get(row.runId)?.datasetId;
        return id ? datasetIdView(id) : '—';
      },
    },
    { label: 'Samples', value: ({ row }) => row.samples },
    ...axes.map(
      (column): Column<Row> => ({
        label: column.label,
        value: ({ row }) => row.values[variant.key]?.[column.key] ?? null,
        attributes: () => ({ class: 'cell', 'data-column': column.key }),
        cell: ({ row }) =>
          scoreCell(row.values[variant.key]?.[column.key], row.intervals?.[variant.key]?.[column.key]),
      }),
    ),
    {
      label: 'Average',
      value: (entry) => entry.average,
      attributes: () => ({ class: 'cell', 'data-column': 'average' }),
      cell: (entry) => scoreCell(entry.average),
    },
  ];
}

/** How the rank intervals and the marks were computed. */
function rankNote(ranking: RankIntervals): HTMLElement {
  const { level: confidence, resamples, seed, tasks } = ranking;
  return el('p', {
    class: 'muted',
    id: 'rank-note',
    text: `Rank interval: the ${Math.round(100 * confidence)}% interval of each model's rank over ${resamples} bootstrap resamples (seed ${seed}) of every dataset's units (NIAH: needles), the same units for every model, ranked by the average of ${tasks.join(', ')}. "≈ next": not significantly different from the next model down the ranking (paired bootstrap of the two averages' difference, p ≥ ${(1 - confidence).toFixed(2)}).`,
  });
}

/** The rank interval beside the rank, and against the next row down: ≈ (not significantly different) or >. */
function withRankColumns(columns: Column<Row>[], ranking: RankIntervals | undefined): Column<Row>[] {
  if (!ranking) return columns;
  const entries = new Map(ranking.entries.map((entry) => [entry.runId, entry]));
  const span = (entry: RankIntervals['entries'][number]) =>
    entry.lower === entry.upper ? String(entry.lower) : `${entry.lower}–${entry.upper}`;
  const interval: Column<Row> = {
    label: 'Rank interval',
    value: ({ row }) => entries.get(row.runId)?.lower ?? null,
    attributes: () => ({ class: 'rank-interval' }),
    cell: ({ row }) => {
      const entry = entries.get(row.runId);
      return entry ? span(entry) : '—';
    },
  };
  const next: Column<Row> = {
    label: 'vs next',
    value: ({ row }) => entries.get(row.runId)?.next?.p ?? null,
    attributes: () => ({ class: 'vs-next' }),
    cell: ({ row }) => {
      const test = entries.get(row.runId)?.next;
      if (!test) return '';
      const p = test.p < 0.001 ? 'p < 0.001' : `p = ${test.p.toFixed(3)}`;
      return el('span', { title: p, text: `${test.different ? '>' : '≈'} next (${p})` });
    },
  };
  return [columns[0]!, interval, ...columns.slice(1), next];
}
