import type { RunRecord, StoredResult } from '../../core/run-record.js';
import type { ReportTable } from '../../core/suite.js';
import type { IntervalSettings, ReportInterval } from '../../metrics/uncertainty/index.js';
import { escapeHtml } from '../../report/escape-html.js';
import { cellWithInterval, htmlCell } from '../../report/interval-cell.js';
import { type RunSummary, runSummary } from '../../report/run-summary.js';
import { renderScatter } from '../../report/svg-scatter.js';
import { renderReportTable } from '../../report/text-table.js';
import { clueIntervals, clueIntervalsTable, clueUnitOf, type ItemValues } from './clue-intervals.js';
import { type ClueJudgeReport, clueJudgeTable, judgeOfRun } from './clue-judge-report.js';
import {
  clueJudgeSensitivityTable,
  type JudgeProbeRecord,
  judgeProbesOfRun,
} from './clue-judge-sensitivity.js';
import { clueLevelIntervals } from './clue-level-intervals.js';
import { CLUE_LEVELS, clueMetricKey } from './clue-scoring.js';
import { JUDGE_METRIC } from './judge-task.js';
import { levelScore } from './level-score.js';
import {
  averaged,
  averagingOf,
  CLUE_PROTOCOL,
  type ClueProtocol,
  type ClueProtocolName,
} from './protocols.js';

/** Table 3's columns: dataset → metric → header. */
const COLUMNS = {
  1: [
    ['mednli', 'accuracy', 'MedNLI Acc'],
    ['problem-summary', 'rougeL', 'PS R-L'],
    ['problem-summary', 'rouge1', 'PS R-1'],
    ['problem-summary', 'rouge2', 'PS R-2'],
    ['problem-summary', 'bertscore', 'PS BERT F1'],
    ['problem-summary', 'umls', 'PS UMLS F1'],
    ['meqsum', 'rougeL', 'MeQSum R-L'],
    ['meqsum', 'rouge1', 'MeQSum R-1'],
    ['meqsum', 'rouge2', 'MeQSum R-2'],
    ['meqsum', 'bertscore', 'MeQSum BERT F1'],
  ],
  2: [
    ['longhealth', 'task1', 'LH Task 1'],
    ['longhealth', 'task2', 'LH Task 2'],
    ['longhealth', 'task3', 'LH Task 3'],
    ['medisumqa', 'rougeL', 'MDSQA R-L'],
    ['medisumqa', 'rouge1', 'MDSQA R-1'],
    ['medisumqa', 'rouge2', 'MDSQA R-2'],
    ['medisumqa', 'bertscore', 'MDSQA BERT F1'],
    ['medisumqa', 'umls', 'MDSQA UMLS F1'],
    ['medisumcode', 'emF1', 'MDSC EM F1'],
    ['medisumcode', 'apF1', 'MDSC AP F1'],
    ['medisumcode', 'validCodes', 'MDSC Valid'],
  ],
} as const;

/** One run of the report: what every suite says of a run (model id, provider, source, statuses, settings), then CLUE's scores. */
export interface ClueRunReport extends RunSummary {
  runId: string;
  label: string;
  /** Which version of the authors' scripts produced every number of this run. */
  protocol: { name: string; commit: string } | null;
  /** How UMLS F1 was computed (medbench's MRCONSO matcher, or entity sets supplied from elsewhere). */
  umls: string | null;
  /** dataset → metric → mean ×100 over its items (LongHealth: accuracy per sub-task). */
  scores: Record<string, Record<string, number>>;
  /** Items scored per dataset. */
  items: Record<string, number>;
  /** dataset → metric → the score's 95% interval (×100), when the report computes intervals. */
  intervals?: Record<string, Record<string, ReportInterval>>;
  /** Metric → why it was not computed. */
  notComputed: Record<string, string>;
  /** The LLM judge of the run (`medbench judge`), when it was judged. */
  judge?: ClueJudgeReport;
  /** Each judge's sensitivity to the probes of `medbench judge-probe`, when it was probed. */
  judgeProbes?: JudgeProbeRecord[];
  /** Level scores (null unless every dataset of the level was run). */
  level1: number | null;
  level2: number | null;
  /** The level scores' 95% intervals (×100; each dataset resampled apart), when the report computes intervals. */
  levelIntervals?: { level1: ReportInterval | null; level2: ReportInterval | null };
}

export interface ClueDifference {
  label: string;
  /** dataset → metric → this run's score minus the base run's (×100 points). */
  differences: Record<string, Record<string, number>>;
  level1: number | null;
  level2: number | null;
}

export interface ClueReport {
  suite: 'clue';
  generatedAt: string;
  runs: ClueRunReport[];
  /** Figure 5: every other run against the base run, when one is chosen. */
  base?: { label: string; differences: ClueDifference[] };
}

/** Each dataset's metrics ×100 as the run's protocol averages them (the judge's: a plain mean). */
function datasetScores(
  values: Record<string, Record<string, Array<{ order: number; value: number }>>>,
  run: RunRecord,
): ClueRunReport['scores'] {
  const scores: ClueRunReport['scores'] = {};
  for (const [dataset, metrics] of Object.entries(values)) {
    const rule = averagingOf(run.parameters, dataset);
    scores[dataset] = Object.fromEntries(
      Object.entries(metrics).map(([metric, list]) => [
        metric,
        100 *
          averaged(
            [...list].sort((left, right) => left.order - right.order).map((entry) => entry.value),
            // The judge's score is medbench's, not the papers': a plain mean over the items it scored.
            metric === JUDGE_METRIC ? 'mean' : rule,
          ),
      ]),
    );
  }
  return scores;
}

/** CLUE's report of stored runs: each run's scores per task (Table 3's layout). */
export function buildClueReport(
  runs: ReadonlyArray<{ run: RunRecord; results: readonly StoredResult[] }>,
  options: { base?: string; intervals?: IntervalSettings } = {},
): ClueReport {
  const report: ClueReport = {
    suite: 'clue',
    generatedAt: new Date().toISOString(),
    runs: runs.map(({ run, results }) => {
      const protocolName = (run.parameters.protocol as { name?: string } | undefined)?.name;
      const protocol = CLUE_PROTOCOL[protocolName as ClueProtocolName] as ClueProtocol | undefined;
      // dataset → metric → per-item values in scoring order.
      const values: Record<
        string,
        Record<string, Array<{ order: number; value: number; unit?: string }>>
      > = {};
      const items: Record<string, number> = {};
      for (const result of results) {
        items[result.task] = (items[result.task] ?? 0) + 1;
        const dataset = values[result.task] ?? {};
        values[result.task] = dataset;
        for (const [metric, value] of Object.entries(result.scores)) {
          const key = clueMetricKey(result, metric);
          dataset[key] ??= [];
          dataset[key]!.push({ order: Number(result.params.order ?? 0), value, unit: clueUnitOf(result) });
        }
      }
      const scores = datasetScores(values, run);
      // A level needs every one of its datasets; metrics not computed are left out of a
      // dataset's mean, which the report marks (the score is then not Table 3's).
      const level = (datasets: readonly string[]) =>
        datasets.every((dataset) => scores[dataset])
          ? levelScore(Object.fromEntries(datasets.map((dataset) => [dataset, scores[dataset]!])))
          : null;
      const umls = run.parameters.umls as { source?: string; file?: string } | null | undefined;
      return {
        runId: run.id,
        label: run.label,
        ...runSummary(run, results),
        protocol: protocol ? { name: protocol.name, commit: protocol.commit } : null,
        umls: !umls
          ? null
          : umls.source === 'entities'
            ? `entity sets from ${umls.file} (e.g. scispacy, as the paper)`
            : "medbench's MRCONSO string matcher, not the paper's scispacy linker",
        scores,
        items,
        ...(options.intervals
          ? {
              intervals: clueIntervals(
                values as Record<string, Record<string, ItemValues>>,
                options.intervals,
              ),
            }
          : {}),
        notComputed: (run.parameters.notComputed as Record<string, string> | undefined) ?? {},
        ...judgeOfRun(run),
        ...judgeProbesOfRun(run),
        level1: level(CLUE_LEVELS[0]),
        level2: level(CLUE_LEVELS[1]),
        ...(options.intervals ? { levelIntervals: clueLevelIntervals(results, options.intervals) } : {}),
      };
    }),
  };
  distinguishLabels(report.runs);
  if (options.base) report.base = differencesAgainst(report.runs, options.base);
  return report;
}

/**
 * Runs sharing a label (the baseline under both protocols, say) get their protocol added,
 * then a short run id if that is not enough, so no two rows of a table read the same.
 */
function distinguishLabels(runs: ClueRunReport[]): void {
  const shared = (run: ClueRunReport) => runs.filter((other) => other.label === run.label).length > 1;
  const withProtocol = runs.map((run) =>
    shared(run) ? `${run.label} (${run.protocol?.name ?? 'no protocol'})` : run.label,
  );
  runs.forEach((run, index) => {
    const label = withProtocol[index]!;
    run.label =
      withProtocol.filter((other) => other === label).length > 1
        ? `${label} ${run.runId.slice(0, 8)}`
        : label;
  });
}

const cell = (run: ClueRunReport, dataset: string, metric: string) => {
  const value = run.scores[dataset]?.[metric];
  if (value !== undefined) return cellWithInterval(value.toFixed(2), run.intervals?.[dataset]?.[metric]);
  return run.items[dataset] ? 'n/c' : '—';
};

/** The level score, marked * when a metric of its datasets was not computed (not comparable to Table 3). */
function levelCell(run: ClueRunReport, level: 1 | 2, score: number | null): string {
  if (score === null) return '—';
  const partial = COLUMNS[level].some(
    ([dataset, metric]) => run.items[dataset] !== undefined && run.scores[dataset]?.[metric] === undefined,
  );
  const interval = run.levelIntervals?.[level === 1 ? 'level1' : 'level2'];
  return cellWithInterval(`${score.toFixed(2)}${partial ? '*' : ''}`, interval);
}

function differencesAgainst(runs: readonly ClueRunReport[], baseLabel: string): ClueReport['base'] {
  const base = runs.find((run) => run.label === baseLabel);
  if (!base) return { label: baseLabel, differences: [] };
  const minus = (left: number | null, right: number | null) =>
    left === null || right === null ? null : left - right;
  return {
    label: baseLabel,
    differences: runs
      .filter((run) => run !== base)
      .map((run) => ({
        label: run.label,
        differences: Object.fromEntries(
          Object.entries(run.scores).flatMap(([dataset, metrics]) => {
            const baseMetrics = base.scores[dataset];
            if (!baseMetrics) return [];
            const shared = Object.entries(metrics).filter(([metric]) => baseMetrics[metric] !== undefined);
            return [
              [
                dataset,
                Object.fromEntries(shared.map(([metric, value]) => [metric, value - baseMetrics[metric]!])),
              ],
            ];
          }),
        ),
        level1: minus(run.level1, base.level1),
        level2: minus(run.level2, base.level2),
      })),
  };
}

/** One level's table: header and a row per run (Table 3 layout). */
function levelTable(report: ClueReport, level: 1 | 2): { header: string[]; rows: string[][] } {
  const header = ['Model', `Level ${level}`, ...COLUMNS[level].map(([, , name]) => name)];
  const rows = report.runs.map((run) => [
    run.label,
    levelCell(run, level, level === 1 ? run.level1 : run.level2),
    ...COLUMNS[level].map(([dataset, metric]) => cell(run, dataset, metric)),
  ]);
  return { header, rows };
}

const signed = (value: number | null) =>
  value === null ? '—' : `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;

/** Figure 5's table: each run's difference from the base run, per level and metric. */
function differenceTable(base: NonNullable<ClueReport['base']>): ReportTable {
  const columns = [...COLUMNS[1], ...COLUMNS[2]];
  const header = ['Model', 'Level 1', 'Level 2', ...columns.map(([, , name]) => name)];
  const rows = base.differences.map((difference) => [
    difference.label,
    signed(difference.level1),
    signed(difference.level2),
    ...columns.map(([dataset, metric]) => signed(difference.differences[dataset]?.[metric] ?? null)),
  ]);
  return { name: 'difference', title: `Difference from ${base.label} (points)`, header, rows };
}

/** Figure 5 as text: each run's difference from the base run, per level and metric. */
function differenceText(report: ClueReport): string[] {
  if (!report.base) return [];
  if (report.base.differences.length === 0) return [`No other run to compare with "${report.base.label}".`];
  return [renderReportTable(differenceTable(report.base))];
}

/** Table 3's two levels, and Figure 5's differences when there is a base run with others to compare. */
export function clueTables(report: ClueReport): ReportTable[] {
  const levels = ([1, 2] as const).map((level) => ({
    name: `level-${level}`,
    title: `CLUE level ${level} (scores ×100; n/c = not computed, — = task not run; * = level score without every metric)`,
    ...levelTable(report, level),
  }));
  const intervals = clueIntervalsTable(report.runs);
  const judge = clueJudgeTable(report.runs);
  const sensitivity = clueJudgeSensitivityTable(report.runs);
  return [
    ...levels,
    ...(report.base?.differences.length ? [differenceTable(report.base)] : []),
    ...(intervals ? [intervals] : []),
    ...(judge ? [judge] : []),
    ...(sensitivity ? [sensitivity] : []),
  ];
}

/** Table 3 as text: level score then every metric; n/c = not computed, — = task not run. */
export function renderClueText(report: ClueReport): string {
  const tables = clueTables(report)
    .filter((table) => table.name.startsWith('level-'))
    .map(renderReportTable);
  const intervals = clueIntervalsTable(report.runs);
  const judge = clueJudgeTable(report.runs);
  const sensitivity = clueJudgeSensitivityTable(report.runs);
  const reasons = report.runs.flatMap((run) =>
    Object.entries(run.notComputed).map(
      ([metric, reason]) => `${run.label}: ${metric} not computed — ${reason}`,
    ),
  );
  return [
    ...tables,
    runNotes(report).join('\n'),
    ...(reasons.length ? [reasons.join('\n')] : []),
    ...differenceText(report),
    ...(intervals ? [renderReportTable(intervals)] : []),
    ...(judge ? [renderReportTable(judge)] : []),
    ...(sensitivity ? [renderReportTable(sensitivity)] : []),
  ].join('\n\n');
}

/** Per run: the protocol behind its numbers, and how UMLS F1 was computed. */
function runNotes(report: ClueReport): string[] {
  return report.runs.map((run) => {
    const protocol = run.protocol
      ? `protocol ${run.protocol.name} (the authors' scripts at commit ${run.protocol.commit})`
      : 'no protocol recorded (a run from before protocols)';
    return `${run.label}: ${protocol}${run.umls ? `; UMLS F1 by ${run.umls}` : ''}.`;
  });
}

/** Figure 4: level 1 against level 2, one labelled point per run with both levels. */
function figure4(report: ClueReport): string {
  const points = report.runs.flatMap((run) =>
    run.level1 !== null && run.level2 !== null ? [{ label: run.label, x: run.level1, y: run.level2 }] : [],
  );
  if (points.length === 0) return '<p>Level 1 against level 2: no run has both levels.</p>';
  return `<h2>Level 1 against level 2</h2>${renderScatter({ title: 'CLUE: level 1 against level 2', xLabel: 'Level 1 score', yLabel: 'Level 2 score', points, maximum: 100 })}`;
}

/** Figure 5: differences from the base run, as a table with signed values. */
function figure5(report: ClueReport): string {
  const [text] = differenceText(report);
  return text
    ? `<h2>Difference from ${escapeHtml(report.base!.label)}</h2><pre>${escapeHtml(text)}</pre>`
    : '';
}

/** Every score with its 95% interval, as a preformatted table. */
function intervalsHtml(report: ClueReport): string {
  const intervals = clueIntervalsTable(report.runs);
  return intervals ? `<h2>95% intervals</h2><pre>${escapeHtml(renderReportTable(intervals))}</pre>` : '';
}

/** The LLM judge's table (`medbench judge`), when a run was judged. */
function judgeHtml(report: ClueReport): string {
  const judge = clueJudgeTable(report.runs);
  const sensitivity = clueJudgeSensitivityTable(report.runs);
  return [
    judge ? `<h2>LLM judge</h2><pre>${escapeHtml(renderReportTable(judge))}</pre>` : '',
    sensitivity ? `<h2>Judge sensitivity</h2><pre>${escapeHtml(renderReportTable(sensitivity))}</pre>` : '',
  ].join('');
}

/** A self-contained HTML page with the two Table 3 tables. */
export function renderClueHtml(report: ClueReport): string {
  const table = (level: 1 | 2) => {
    const { header, rows } = levelTable(report, level);
    return `<h2>Level ${level}</h2><table><thead><tr>${header.map((name) => `<th>${escapeHtml(name)}</th>`).join('')}</tr></thead><tbody>${rows
      .map((row) => `<tr>${row.map((value) => `<td>${htmlCell(value)}</td>`).join('')}</tr>`)
      .join('')}</tbody></table>`;
  };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>medbench — CLUE report</title><style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse;font-size:.85rem}th,td{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}th:first-child,td:first-child{text-align:left}</style></head><body><h1>CLUE</h1><p>Scores ×100; n/c = not computed; — = task not run; * = level score without every metric.</p><ul>${runNotes(
    report,
  )
    .map((line) => `<li>${escapeHtml(line)}</li>`)
    .join(
      '',
    )}</ul>${table(1)}${table(2)}${intervalsHtml(report)}${judgeHtml(report)}${figure4(report)}${figure5(report)}</body></html>\n`;
}
