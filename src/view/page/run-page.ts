import type { GroupSummary, Overview, RunSummary } from '../shared/view-types.js';
import { heatmap, lineChart, radarChart } from './charts.js';
import type { DataSource } from './data-source.js';
import { dataTable } from './data-table.js';
import { datasetIdView } from './dataset-id.js';
import { count, el, figureText, fraction, href, link, render } from './dom.js';
import { fieldList } from './field-list.js';
import { navigation } from './navigation.js';

/** The report's own figures of a group (the paper's tables): KG/Table micro P/R/F1 and counts. */
export function figuresTable(
  caption: string,
  figures: GroupSummary['figures'],
  name: string,
): HTMLElement | null {
  if (figures.length === 0) return null;
  return dataTable({
    id: `figures-${name}`,
    caption,
    name: `${name}-figures`,
    rows: figures,
    columns: [
      { label: 'Figure', rowHeader: true, value: (figure) => figure.name },
      { label: 'Value', value: (figure) => figure.value, cell: figureText },
      { label: 'Unit', value: (figure) => figure.unit },
    ],
  });
}

function compareMenu(summary: RunSummary, overview: Overview, group: string): HTMLElement {
  const { run } = summary;
  // Compare within one suite and dataset; same-label runs are told apart by id, date and source.
  const peers = (overview.suites.find((entry) => entry.suite === run.suite)?.runs ?? []).filter(
    (peer) => peer.id !== run.id && peer.datasetId === run.datasetId,
  );
  return el(
    'select',
    {
      'aria-label': `Compare ${group} with`,
      onchange: (event: Event) => {
        const value = (event.target as HTMLSelectElement).value;
        if (value) location.hash = href('compare', { a: run.id, b: value, group });
      },
    },
    el('option', { value: '', text: 'Compare with…' }),
    peers.map((peer) =>
      el('option', {
        value: peer.id,
        text: `${peer.label} — ${peer.id.slice(0, 8)} · ${peer.createdAt.slice(0, 10)} · ${peer.imported ? 'imported' : 'run by medbench'}`,
      }),
    ),
  );
}

/** A group's per-sample means with their 95% intervals and how each was made. */
function metricsTable(summary: RunSummary, group: GroupSummary): HTMLElement {
  const metrics = Object.entries(group.metrics).map(([metric, estimate]) => ({ metric, estimate }));
  // Fractions read as percent; counts (KG true/false positives per sample) as means of counts.
  const show = (metric: string) => (group.fractional.includes(metric) ? fraction : count);
  return dataTable({
    id: `metrics-${group.group}`,
    caption:
      'Per-sample means with 95% intervals (% for rates): Wilson for 0/1 scores of independent samples, otherwise a seeded percentile bootstrap over units (a NIAH needle, a LongHealth patient, else the sample)',
    name: `${summary.run.label}-${group.group}-metrics`,
    rows: metrics,
    columns: [
      { label: 'Metric', rowHeader: true, value: (row) => group.metricNames[row.metric] ?? row.metric },
      {
        label: 'Mean',
        value: (row) => row.estimate.estimate,
        cell: (row) => show(row.metric)(row.estimate.estimate),
      },
      {
        label: 'Low',
        value: (row) => row.estimate.lower,
        cell: (row) => show(row.metric)(row.estimate.lower),
      },
      {
        label: 'High',
        value: (row) => row.estimate.upper,
        cell: (row) => show(row.metric)(row.estimate.upper),
      },
      { label: 'n', value: (row) => row.estimate.n },
      { label: 'Units', value: (row) => row.estimate.units },
      {
        label: 'Interval',
        value: (row) =>
          row.estimate.method === 'bootstrap'
            ? `bootstrap (B=${row.estimate.resamples})`
            : row.estimate.method,
      },
    ],
  });
}

function groupSection(summary: RunSummary, overview: Overview, group: GroupSummary): HTMLElement {
  const runId = summary.run.id;
  const problems = Object.entries(group.statuses).filter(([status]) => status !== 'ok');
  return el(
    'section',
    { 'data-group': group.group },
    el('h2', { text: `${group.title} — ${group.samples} samples` }),
    el(
      'div',
      { class: 'controls' },
      link('Samples', 'samples', { run: runId, group: group.group }),
      problems.map(([status, number]) =>
        link(
          `${number} ${status}`,
          'samples',
          { run: runId, group: group.group, status },
          { class: `status-${status}` },
        ),
      ),
      compareMenu(summary, overview, group.group),
      el('span', {
        class: 'muted',
        text: [
          ...Object.entries(group.statuses).map(([status, number]) => `${status} ${number}`),
          ...(group.excluded > 0 ? [`${group.excluded} beyond the model's window, not counted (—)`] : []),
        ].join(' · '),
      }),
    ),
    figuresTable(
      "The report's figures (the paper's tables)",
      group.figures,
      `${summary.run.label}-${group.group}`,
    ),
    metricsTable(summary, group),
    group.grid ? heatmap(runId, group.group, group.grid) : null,
    group.byColumn
      ? lineChart(
          `${group.metricNames[group.primary ?? ''] ?? group.primary} against ${group.byColumn.axis.name}`,
          Object.entries(group.byColumn.points).map(([value, estimate]) => ({ label: value, ...estimate })),
          group.byColumn.axis.chartAxis,
        )
      : null,
    group.curve
      ? lineChart(
          'Exact HR@n',
          group.curve.map((point) => ({ label: point.cutoff, ...point })),
          'n',
        )
      : null,
  );
}

function facts(summary: RunSummary): HTMLElement {
  const { run, usage } = summary;
  const fact = (term: string, ...value: Array<Node | string>) => [
    el('dt', { text: term }),
    el('dd', {}, ...value),
  ];
  return el(
    'dl',
    { id: 'run-facts' },
    fact('Run', run.id),
    fact('Suite', link(run.suite, 'leaderboard', { suite: run.suite })),
    fact('Dataset', datasetIdView(run.datasetId)),
    fact('Model', String(run.model.modelId ?? run.label)),
    fact('Model description', fieldList('run-model', run.model)),
    fact('Source', `${run.imported ? 'published outputs, imported' : 'run by medbench'} · ${run.createdAt}`),
    fact('Protocol', `scoring ${run.scoringMode}`),
    fact('Parameters', fieldList('run-parameters', run.parameters)),
    summary.limited ? fact('Limited', `${summary.limited}: scores of those samples only`) : null,
    fact(
      'Samples',
      [
        summary.samples,
        ...Object.entries(summary.statuses).map(([status, number]) => `${status} ${number}`),
      ].join(' · '),
    ),
    fact(
      'Tokens and cost',
      usage.inputTokens === null
        ? '— (not recorded)'
        : `${usage.inputTokens} in / ${usage.outputTokens ?? '—'} out; cost ${usage.cost === null ? '—' : `$${usage.cost.toFixed(4)}`}`,
    ),
  );
}

/** A run: what it is, its totals, a radar across datasets and each task group's figures and charts. */
export async function runPage(source: DataSource, query: URLSearchParams): Promise<void> {
  const overview = await navigation(source);
  const summary = await source.run(query.get('id') ?? '');
  const { run } = summary;
  const board = await source.leaderboard(run.suite);
  const row = board.rows.find((entry) => entry.runId === run.id);
  const variant = board.variants[0];
  const axes = variant ? variant.columns.filter((column) => column.key !== 'Avg.') : [];
  render(
    el('h1', { text: run.label }, run.imported ? el('span', { class: 'imported', text: 'imported' }) : null),
    facts(summary),
    row && variant && axes.length >= 3
      ? radarChart(
          `${variant.label} across datasets`,
          axes.map((column) => column.label),
          [{ name: run.label, values: axes.map((column) => row.values[variant.key]?.[column.key] ?? null) }],
        )
      : null,
    summary.groups.map((group) => groupSection(summary, overview, group)),
  );
}
