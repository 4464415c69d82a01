import type { RunRecord, StoredResult } from '../../core/run-record.js';
import type { ReportTable } from '../../core/suite.js';
import { RETRIEVAL_CUTOFFS } from '../../metrics/retrieval.js';
import type { IntervalSettings } from '../../metrics/uncertainty/index.js';
import { displayLabels } from '../../report/display-labels.js';
import { escapeHtml } from '../../report/escape-html.js';
import { cellWithInterval, htmlCell } from '../../report/interval-cell.js';
import { type RunSummary, runSummary } from '../../report/run-summary.js';
import { renderLineChart } from '../../report/svg-line-chart.js';
import { renderRadar } from '../../report/svg-radar.js';
import { renderReportTable } from '../../report/text-table.js';
import { dataTypeOf, MEDEUREKA_DATASETS } from './datasets.js';
import {
  type MedEurekaIntervals,
  medeurekaIntervals,
  medeurekaIntervalsTable,
} from './medeureka-intervals.js';
import { isMtebImport, type MtebRow, mtebRows, mtebTable } from './mteb-table.js';

type Scores = Record<string, number>;

/** One run of the report: what every suite says of a run (model id, provider, source, statuses, settings), then MedEureka's scores. */
export interface MedEurekaRunReport extends RunSummary {
  runId: string;
  label: string;
  /** The retriever: kind, provider, model id, revision, instruction template … (no secrets). */
  model: Record<string, unknown>;
  /** dataset → { "mrr@n" | "hr@n" → percent, queries }: every query of a dataset pooled (Term I/II merge their sub-corpora this way). */
  datasets: Record<string, Scores>;
  /** Plain means over the datasets run. */
  average: Scores;
  /** Plain means of dataset scores per data type (Table, Literature, KB, Term, EHR, Dialogue). */
  byDataType: Record<string, Scores>;
  /** Per language (en, zh, en→zh). */
  byLanguage: Record<string, Scores>;
  /** Per query → target granularity (Figure 3). */
  byGranularity: Record<string, Scores>;
  /** Every score's 95% interval (×100), when the report computes intervals. */
  intervals?: MedEurekaIntervals;
}

export interface MedEurekaReport {
  suite: 'medeureka';
  generatedAt: string;
  runs: MedEurekaRunReport[];
  /** MTEB's metrics of every run per dataset, and the MTEB result files imported (`medbench import mteb`); absent when there are none. */
  mteb?: MtebRow[];
}

const METRIC_KEYS = RETRIEVAL_CUTOFFS.flatMap((n) => [`hr@${n}`, `mrr@${n}`]);

function meanOf(rows: readonly Scores[]): Scores {
  const mean: Scores = {};
  for (const key of METRIC_KEYS)
    mean[key] = rows.reduce((sum, row) => sum + (row[key] ?? 0), 0) / Math.max(1, rows.length);
  return mean;
}

function groupMeans(datasets: Record<string, Scores>, groupOf: (name: string) => string | undefined) {
  const groups = new Map<string, Scores[]>();
  for (const [name, scores] of Object.entries(datasets)) {
    const group = groupOf(name);
    if (group !== undefined) groups.get(group)?.push(scores) ?? groups.set(group, [scores]);
  }
  return Object.fromEntries([...groups].map(([group, rows]) => [group, meanOf(rows)]));
}

const datasetByName = new Map(MEDEUREKA_DATASETS.map((dataset) => [dataset.name, dataset]));

/** The group of a dataset in each breakdown: data type, language, query → target granularity. */
const GROUP_OF = {
  byDataType: (name: string) => {
    const dataset = datasetByName.get(name);
    return dataset ? dataTypeOf(dataset) : undefined;
  },
  byLanguage: (name: string) => datasetByName.get(name)?.language,
  byGranularity: (name: string) => datasetByName.get(name)?.granularity,
};

/** MedEureka's report of stored runs: per run, each dataset's MRR@n and HR@n, their mean, and the means by data type and language. */
export function buildMedEurekaReport(
  runs: ReadonlyArray<{ run: RunRecord; results: readonly StoredResult[] }>,
  options: { intervals?: IntervalSettings } = {},
): MedEurekaReport {
  const labels = displayLabels(runs);
  const mteb = mtebRows(runs);
  return {
    suite: 'medeureka',
    generatedAt: new Date().toISOString(),
    ...(mteb.length > 0 ? { mteb } : {}),
    runs: runs
      .filter(({ run }) => !isMtebImport(run))
      .map(({ run, results }) => {
        const byDataset = new Map<string, StoredResult[]>();
        for (const result of results) {
          const name = String(result.params.dataset);
          byDataset.get(name)?.push(result) ?? byDataset.set(name, [result]);
        }
        const datasets: MedEurekaRunReport['datasets'] = {};
        const order = (name: string) =>
          MEDEUREKA_DATASETS.findIndex((dataset) => dataset.name === name) >>> 0;
        const ordered = [...byDataset].sort(([left], [right]) => order(left) - order(right));
        for (const [name, rows] of ordered) {
          // Pooling every query of a dataset = summing hits and totals over its sub-corpora.
          datasets[name] = { queries: rows.length, ...meanOf(rows.map((row) => row.scores)) };
          for (const key of METRIC_KEYS) datasets[name]![key]! *= 100;
        }
        return {
          runId: run.id,
          label: labels.get(run.id)!,
          ...runSummary(run, results),
          model: run.model,
          datasets,
          average: meanOf(Object.values(datasets)),
          byDataType: groupMeans(datasets, GROUP_OF.byDataType),
          byLanguage: groupMeans(datasets, GROUP_OF.byLanguage),
          byGranularity: groupMeans(datasets, GROUP_OF.byGranularity),
          ...(options.intervals
            ? {
                intervals: medeurekaIntervals({
                  byDataset: ordered,
                  metrics: METRIC_KEYS,
                  groupOf: GROUP_OF,
                  settings: options.intervals,
                }),
              }
            : {}),
        };
      }),
  };
}

function presentDatasets(report: MedEurekaReport): string[] {
  return MEDEUREKA_DATASETS.map((dataset) => dataset.name).filter((name) =>
    report.runs.some((run) => run.datasets[name]),
  );
}

/** A score in percent at two decimals, its 95% interval under it (`—` for none). */
const scoreCell = (value: number | undefined, interval: { lower: number; upper: number } | undefined) =>
  value === undefined ? '—' : cellWithInterval(value.toFixed(2), interval);

function table3(report: MedEurekaReport, metric: 'mrr@10' | 'hr@10') {
  const present = presentDatasets(report);
  return {
    title: `MedEureka — ${metric === 'mrr@10' ? 'MRR@10' : 'Exact HR@10'} (%)`,
    header: ['Model', ...present, 'Avg.'],
    rows: report.runs.map((run) => [
      run.label,
      ...present.map((name) =>
        scoreCell(run.datasets[name]?.[metric], run.intervals?.datasets[name]?.[metric]),
      ),
      scoreCell(run.average[metric], run.intervals?.average[metric]),
    ]),
  };
}

function groupTable(
  report: MedEurekaReport,
  field: 'byDataType' | 'byLanguage' | 'byGranularity',
  metric: string,
) {
  const groups = [...new Set(report.runs.flatMap((run) => Object.keys(run[field])))];
  return {
    header: ['Model', ...groups],
    rows: report.runs.map((run) => [
      run.label,
      ...groups.map((group) =>
        scoreCell(run[field][group]?.[metric], run.intervals?.[field][group]?.[metric]),
      ),
    ]),
  };
}

const GROUP_TABLES = [
  ['byDataType', 'by data type', 'by-data-type'],
  ['byLanguage', 'by language', 'by-language'],
  ['byGranularity', 'by query → target granularity', 'by-granularity'],
] as const;

/** Table 3 (MRR@10 and Exact HR@10 per model and dataset), then the MRR@10 means by data type, language and granularity. */
export function medeurekaTables(report: MedEurekaReport): ReportTable[] {
  const tables: ReportTable[] = (['mrr@10', 'hr@10'] as const).map((metric) => ({
    name: metric.replace('@', '-'),
    ...table3(report, metric),
  }));
  for (const [field, title, name] of GROUP_TABLES)
    tables.push({
      name: `mrr-10-${name}`,
      title: `MedEureka — MRR@10 (%) ${title}, plain means of dataset scores`,
      ...groupTable(report, field, 'mrr@10'),
    });
  const intervals = medeurekaIntervalsTable(report.runs);
  if (intervals) tables.push(intervals);
  const mteb = mtebTable(report.mteb ?? []);
  if (mteb) tables.push(mteb);
  return tables;
}

/** The tables as text (`medeurekaTables`). */
export function renderMedEurekaText(report: MedEurekaReport): string {
  return medeurekaTables(report).map(renderReportTable).join('\n\n');
}

function htmlTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return `<table><thead><tr>${header.map((name) => `<th scope="col">${escapeHtml(name)}</th>`).join('')}</tr></thead><tbody>${rows
    .map(
      (row) =>
        `<tr>${row.map((value, index) => (index === 0 ? `<th scope="row">${escapeHtml(value)}</th>` : `<td>${htmlCell(value)}</td>`)).join('')}</tr>`,
    )
    .join('')}</tbody></table>`;
}

/** Exact HR@n for n from 5 to 500 per dataset, one chart per model and language group (Figures C13, C14). */
function curves(report: MedEurekaReport): string {
  const cutoffs = RETRIEVAL_CUTOFFS.filter((n) => n >= 5);
  const groups = [
    { title: 'English and cross-lingual datasets', languages: ['en', 'en→zh'] },
    { title: 'Chinese datasets', languages: ['zh'] },
  ];
  return report.runs
    .flatMap((run) =>
      groups.map((group) => {
        const names = presentDatasets(report).filter(
          (name) => run.datasets[name] && group.languages.includes(datasetByName.get(name)?.language ?? ''),
        );
        if (names.length === 0) return '';
        return renderLineChart({
          title: `${run.label}: Exact HR@n, ${group.title}`,
          xLabels: cutoffs.map(String),
          series: names.map((name) => ({ name, values: cutoffs.map((n) => run.datasets[name]![`hr@${n}`]) })),
          yLabel: 'Exact HR@n (%)',
        });
      }),
    )
    .join('');
}

function radars(report: MedEurekaReport, metric: string): string {
  return (['byDataType', 'byLanguage', 'byGranularity'] as const)
    .map((field) => {
      const axes = [...new Set(report.runs.flatMap((run) => Object.keys(run[field])))];
      if (axes.length < 3) return '';
      const title = {
        byDataType: 'by data type',
        byLanguage: 'by language',
        byGranularity: 'by granularity',
      }[field];
      return renderRadar({
        title: `${metric.toUpperCase()} ${title}`,
        axes,
        series: report.runs.map((run) => ({
          name: run.label,
          values: axes.map((axis) => run[field][axis]?.[metric]),
        })),
      });
    })
    .join('');
}

/** Every dataset's MRR@10 and Exact HR@10 and their average with 95% intervals. */
function intervalsHtml(report: MedEurekaReport): string {
  const intervals = medeurekaIntervalsTable(report.runs);
  return intervals
    ? `<h2>95% intervals</h2><p>${escapeHtml(intervals.title)}</p>${htmlTable(intervals.header, intervals.rows)}`
    : '';
}

/** The MTEB metrics beside imported MTEB results. */
function mtebHtml(report: MedEurekaReport): string {
  const mteb = mtebTable(report.mteb ?? []);
  return mteb
    ? `<h2>MTEB metrics</h2><p>${escapeHtml(mteb.title)}</p>${htmlTable(mteb.header, mteb.rows)}`
    : '';
}

/** A self-contained HTML page: Table 3, the group means, radars and HR@n curves; every value also as text. */
export function renderMedEurekaHtml(report: MedEurekaReport): string {
  const tables = (['mrr@10', 'hr@10'] as const)
    .map((metric) => {
      const { title, header, rows } = table3(report, metric);
      return `<h2>${escapeHtml(title)}</h2>${htmlTable(header, rows)}`;
    })
    .join('');
  const groups = (['byDataType', 'byLanguage', 'byGranularity'] as const)
    .map((field) => {
      const { header, rows } = groupTable(report, field, 'mrr@10');
      const title = {
        byDataType: 'by data type',
        byLanguage: 'by language',
        byGranularity: 'by query → target granularity',
      }[field];
      return `<h3>MRR@10 (%) ${title}</h3>${htmlTable(header, rows)}`;
    })
    .join('');
  const models = htmlTable(
    ['Model', 'Retriever', 'Instruction template'],
    report.runs.map((run) => [
      run.label,
      Object.entries(run.model)
        .filter(([key]) => key !== 'instructionTemplate')
        .map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
        .join(', '),
      String(run.model.instructionTemplate ?? '—'),
    ]),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>medbench — MedEureka report</title><style>body{font-family:system-ui,"WenQuanYi Micro Hei",sans-serif;margin:2rem;max-width:80rem}table{border-collapse:collapse;font-size:.85rem;margin-bottom:1rem}th,td{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}th[scope=row],thead th:first-child{text-align:left}svg{margin:.5rem;vertical-align:top}</style></head><body><h1>MedEureka</h1><p>Percent, two decimals. Dataset scores pool every query (Term I and II sum their four sub-corpora); averages are plain means of dataset scores.</p>${models}${tables}<h2>Means by group</h2>${groups}${intervalsHtml(report)}${mtebHtml(report)}<h2>Radar charts (MRR@10)</h2>${radars(report, 'mrr@10')}<h2>Exact HR@n curves</h2>${curves(report)}</body></html>\n`;
}
