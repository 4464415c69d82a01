import type { RunRecord, StoredResult } from '../store/store.js';
import { levelScore } from '../suites/clue/level-score.js';
import { escapeHtml } from './escape-html.js';
import { renderTextTable } from './text-table.js';

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

export interface ClueRunReport {
  runId: string;
  label: string;
  /** dataset → metric → mean ×100 over its items (LongHealth: accuracy per sub-task). */
  scores: Record<string, Record<string, number>>;
  /** Items scored per dataset. */
  items: Record<string, number>;
  /** Metric → why it was not computed. */
  notComputed: Record<string, string>;
  /** Level scores (null unless every dataset of the level was run). */
  level1: number | null;
  level2: number | null;
}

export interface ClueReport {
  suite: 'clue';
  generatedAt: string;
  runs: ClueRunReport[];
}

export function buildClueReport(
  runs: ReadonlyArray<{ run: RunRecord; results: readonly StoredResult[] }>,
): ClueReport {
  return {
    suite: 'clue',
    generatedAt: new Date().toISOString(),
    runs: runs.map(({ run, results }) => {
      const sums: Record<string, Record<string, { total: number; count: number }>> = {};
      const items: Record<string, number> = {};
      for (const result of results) {
        items[result.task] = (items[result.task] ?? 0) + 1;
        const dataset = sums[result.task] ?? {};
        sums[result.task] = dataset;
        for (const [metric, value] of Object.entries(result.scores)) {
          const key = result.task === 'longhealth' ? `task${result.params.subtask}` : metric;
          const entry = dataset[key] ?? { total: 0, count: 0 };
          dataset[key] = entry;
          entry.total += value;
          entry.count++;
        }
      }
      const scores: ClueRunReport['scores'] = {};
      for (const [dataset, metrics] of Object.entries(sums)) {
        scores[dataset] = Object.fromEntries(
          Object.entries(metrics).map(([metric, { total, count }]) => [metric, (100 * total) / count]),
        );
      }
      // A level needs every one of its datasets; metrics not computed are left out of a
      // dataset's mean, which the report marks (the score is then not Table 3's).
      const level = (datasets: readonly string[]) =>
        datasets.every((dataset) => scores[dataset])
          ? levelScore(Object.fromEntries(datasets.map((dataset) => [dataset, scores[dataset]!])))
          : null;
      return {
        runId: run.id,
        label: run.label,
        scores,
        items,
        notComputed: (run.parameters.notComputed as Record<string, string> | undefined) ?? {},
        level1: level(['mednli', 'problem-summary', 'meqsum']),
        level2: level(['longhealth', 'medisumqa', 'medisumcode']),
      };
    }),
  };
}

const cell = (run: ClueRunReport, dataset: string, metric: string) => {
  const value = run.scores[dataset]?.[metric];
  if (value !== undefined) return value.toFixed(2);
  return run.items[dataset] ? 'n/c' : '—';
};

/** The level score, marked * when a metric of its datasets was not computed (not comparable to Table 3). */
function levelCell(run: ClueRunReport, level: 1 | 2, score: number | null): string {
  if (score === null) return '—';
  const partial = COLUMNS[level].some(
    ([dataset, metric]) => run.items[dataset] !== undefined && run.scores[dataset]?.[metric] === undefined,
  );
  return `${score.toFixed(2)}${partial ? '*' : ''}`;
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

/** Table 3 as text: level score then every metric; n/c = not computed, — = task not run. */
export function renderClueText(report: ClueReport): string {
  const tables = ([1, 2] as const).map((level) => {
    const { header, rows } = levelTable(report, level);
    return `CLUE level ${level} (scores ×100; n/c = not computed, — = task not run; * = level score without every metric)\n${renderTextTable(header, rows)}`;
  });
  const reasons = report.runs.flatMap((run) =>
    Object.entries(run.notComputed).map(
      ([metric, reason]) => `${run.label}: ${metric} not computed — ${reason}`,
    ),
  );
  return [...tables, ...(reasons.length ? [reasons.join('\n')] : [])].join('\n\n');
}

/** A self-contained HTML page with the two Table 3 tables. */
export function renderClueHtml(report: ClueReport): string {
  const table = (level: 1 | 2) => {
    const { header, rows } = levelTable(report, level);
    return `<h2>Level ${level}</h2><table><thead><tr>${header.map((name) => `<th>${escapeHtml(name)}</th>`).join('')}</tr></thead><tbody>${rows
      .map((row) => `<tr>${row.map((value) => `<td>${escapeHtml(value)}</td>`).join('')}</tr>`)
      .join('')}</tbody></table>`;
  };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>medbench — CLUE report</title><style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse;font-size:.85rem}th,td{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}th:first-child,td:first-child{text-align:left}</style></head><body><h1>CLUE</h1><p>Scores ×100; n/c = not computed; — = task not run.</p>${table(1)}${table(2)}</body></html>\n`;
}
