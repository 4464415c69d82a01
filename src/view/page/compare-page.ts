import { textDiff } from '../shared/text-diff.js';
import type { Comparison, Disagreement, MetricComparison } from '../shared/view-types.js';
import type { DataSource } from './data-source.js';
import { dataTable } from './data-table.js';
import { count, el, figureText, fraction, link, percent, render } from './dom.js';
import { navigation } from './navigation.js';

const show = (metric: MetricComparison) => (metric.counts ? count : fraction);

/**
 * A sample's scores as "ESM: 100.00 · SSM: 0.00": rates in percent with two decimals, as the
 * leaderboard writes them; counts (KG tp/fp/fn) as they are.
 */
function scoresText(comparison: Comparison, scores: Record<string, number>): string {
  const counts = new Set(comparison.metrics.filter((metric) => metric.counts).map((metric) => metric.metric));
  return Object.entries(scores)
    .map(([metric, value]) => {
      const shown = counts.has(metric)
        ? Number.isInteger(value)
          ? String(value)
          : count(value)
        : percent(100 * value);
      return `${comparison.metricNames[metric] ?? metric}: ${shown}`;
    })
    .join(' · ');
}

/** An output with the parts the other output lacks marked. */
function diffView(text: string | null, other: string | null, side: 'left' | 'right'): HTMLElement {
  if (text === null) return el('pre', { class: 'output muted', text: '(no model output)' });
  const parts = textDiff(side === 'left' ? text : (other ?? ''), side === 'left' ? (other ?? '') : text)[
    side
  ];
  return el(
    'pre',
    { class: 'output' },
    parts.map((part) => (part.changed ? el('mark', { class: 'diff', text: part.text }) : part.text)),
  );
}

function figuresSideBySide(comparison: Comparison): HTMLElement | null {
  const { a, b } = comparison.figures;
  if (a.length === 0 && b.length === 0) return null;
  const value = (figures: typeof a, name: string) => figures.find((item) => item.name === name);
  return dataTable({
    id: 'compare-figures',
    caption: "Each run's report figures for the group (the paper's tables)",
    name: `${comparison.a.label}-vs-${comparison.b.label}-${comparison.group}-figures`,
    rows: [...new Set([...a, ...b].map((figure) => figure.name))],
    columns: [
      { label: 'Figure', rowHeader: true, value: (name) => name },
      ...(['a', 'b'] as const).map((side) => ({
        label: `${side.toUpperCase()}: ${comparison[side].label}`,
        value: (name: string) => value(comparison.figures[side], name)?.value ?? null,
        cell: (name: string) => {
          const figure = value(comparison.figures[side], name);
          return figure ? figureText(figure) : '—';
        },
      })),
    ],
  });
}

function sideBySide(comparison: Comparison, row: Disagreement): HTMLElement {
  const column = (side: 'a' | 'b') => {
    const [mine, theirs] = side === 'a' ? [row.outputA, row.outputB] : [row.outputB, row.outputA];
    return el(
      'div',
      {},
      el(
        'p',
        {},
        link(`${side.toUpperCase()}: ${comparison[side].label}`, 'sample', {
          run: comparison[side].id,
          id: row.id,
        }),
        ` — ${scoresText(comparison, row[side])}`,
      ),
      diffView(mine, theirs, side === 'a' ? 'left' : 'right'),
    );
  };
  return el(
    'div',
    { class: 'pair', 'data-sample': row.id },
    el('h3', {}, row.id),
    el('div', { class: 'columns' }, column('a'), column('b')),
  );
}

/** Per metric: each run's mean, B − A with its interval, the paired test, p and the MDD (`compareMetric`). */
function metricsTable(comparison: Comparison): HTMLElement {
  const { a, b } = comparison;
  return dataTable({
    id: 'comparison',
    caption: 'Per-sample metrics, paired',
    name: `${a.label}-vs-${b.label}-${comparison.group}`,
    rows: comparison.metrics,
    columns: [
      {
        label: 'Metric',
        rowHeader: true,
        value: (row) => comparison.metricNames[row.metric] ?? row.metric,
      },
      { label: `A: ${a.label}`, value: (row) => row.meanA, cell: (row) => show(row)(row.meanA) },
      { label: `B: ${b.label}`, value: (row) => row.meanB, cell: (row) => show(row)(row.meanB) },
      {
        label: 'B − A [95% CI]',
        value: (row) => row.difference,
        cell: (row) => `${show(row)(row.difference)} [${show(row)(row.lower)}, ${show(row)(row.upper)}]`,
      },
      {
        label: 'Test',
        value: (row) =>
          row.onlyA === undefined ? row.test : `${row.test}: A only ${row.onlyA}, B only ${row.onlyB}`,
      },
      { label: 'p', value: (row) => row.p, cell: (row) => (row.p < 0.001 ? '< 0.001' : row.p.toFixed(3)) },
      {
        label: 'MDD',
        // JSON carries ∞ (fewer than two units: nothing detectable) as null.
        value: (row) => (Number.isFinite(row.minimumDetectable) ? row.minimumDetectable : null),
        cell: (row) => (Number.isFinite(row.minimumDetectable) ? show(row)(row.minimumDetectable) : '—'),
      },
    ],
  });
}

/** What an --epochs run's side counts: each sample once, its epochs reduced (`rowsPerSample`). */
function epochsNote(comparison: Comparison): string {
  const runs = [comparison.a, comparison.b].filter((run) => Number(run.parameters.epochs) > 1);
  return runs.length === 0
    ? ''
    : ` ${runs.map((run) => run.label).join(' and ')}: each sample's epochs reduced as the report reduces them (the task's reducer), the first answered epoch's output shown.`;
}

/** Two runs of one suite and dataset on a task group: report figures, paired tests, outputs side by side. */
export async function comparePage(source: DataSource, query: URLSearchParams): Promise<void> {
  await navigation(source);
  const comparison = await source.compare(
    query.get('a') ?? '',
    query.get('b') ?? '',
    query.get('group') ?? '',
  );
  const { a, b } = comparison;
  const runText = (run: typeof a) =>
    `${run.label} — ${run.id.slice(0, 8)} · ${run.createdAt.slice(0, 10)} · ${run.imported ? 'imported' : 'run by medbench'}`;
  render(
    el('h1', { text: `${a.label} vs ${b.label} — ${comparison.title}` }),
    el('p', { class: 'muted', text: `A: ${runText(a)}. B: ${runText(b)}.` }),
    el('p', { text: `${comparison.paired} paired samples both runs count. Difference = B − A.` }),
    el('p', {
      class: 'muted',
      id: 'compare-method',
      text: `As \`medbench compare\` computes it: B − A's 95% interval from a paired bootstrap (B = 1000, fixed seed) over ${comparison.metrics[0]?.units ?? 0} units${(comparison.metrics[0]?.units ?? 0) < comparison.paired ? ' (samples resampled together: NIAH needles)' : ''}; McNemar's exact test for 0/1 scores of single samples, else the bootstrap's p. MDD: the smallest difference detected 80% of the time at the 5% level.${epochsNote(comparison)}`,
    }),
    figuresSideBySide(comparison),
    metricsTable(comparison),
    el('h2', { text: `Where they disagree (${comparison.disagreements.length})` }),
    dataTable({
      id: 'disagreements',
      name: `${a.label}-vs-${b.label}-${comparison.group}-disagreements`,
      rows: comparison.disagreements,
      columns: [
        {
          label: 'Sample',
          value: (row) => row.id,
          cell: (row) =>
            link(row.id, 'compare', {
              ...Object.fromEntries(new URLSearchParams(location.hash.split('?')[1] ?? '')),
              sample: row.id,
            }),
        },
        { label: 'A', value: (row) => scoresText(comparison, row.a), attributes: () => ({ class: 'text' }) },
        { label: 'B', value: (row) => scoresText(comparison, row.b), attributes: () => ({ class: 'text' }) },
        { label: 'Output A', value: (row) => row.outputA, attributes: () => ({ class: 'text clip' }) },
        { label: 'Output B', value: (row) => row.outputB, attributes: () => ({ class: 'text clip' }) },
      ],
    }),
    el('h2', { text: 'Outputs side by side' }),
    el('p', {
      class: 'muted',
      text: 'Marked: what the other output lacks (word by word; Chinese character by character).',
    }),
    el('div', { id: 'pairs' }, selectedPairs(comparison, query.get('sample'))),
  );
  if (query.get('sample'))
    document.querySelector(`[data-sample="${CSS.escape(query.get('sample')!)}"]`)?.scrollIntoView();
}

/** The selected disagreement first, then the first 50 (the rest: one click on a sample). */
function selectedPairs(comparison: Comparison, selected: string | null): HTMLElement[] {
  const rows = comparison.disagreements;
  const chosen = selected ? rows.filter((row) => row.id === selected) : [];
  const rest = rows.filter((row) => row.id !== selected).slice(0, 50 - chosen.length);
  return [...chosen, ...rest].map((row) => sideBySide(comparison, row));
}
