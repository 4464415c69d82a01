import type { RunRecord, StoredResult } from '../store/store.js';
import {
  type CountingTable,
  countingBySetting,
  countingTable,
  MEDICAL_DATASETS,
  type MedicalScore,
  medicalScore,
  medicalScoreByLevel,
  type NiahTable,
  niahTable,
  type Tally,
} from '../suites/medodyssey/aggregate.js';
import { COUNTING_TYPES, LANGUAGES, levelName } from '../suites/medodyssey/constants.js';
import { escapeHtml } from './escape-html.js';
import { renderGroupedBarChart } from './svg-bar-chart.js';
import { renderHeatmap } from './svg-heatmap.js';
import { renderLineChart } from './svg-line-chart.js';
import { renderRadar } from './svg-radar.js';
import { renderTextTable } from './text-table.js';

export const MEDODYSSEY_METRICS = ['esm', 'ssm'] as const;
const METRIC_NAMES: Record<string, string> = {
  esm: 'ESM (exact string matching)',
  ssm: 'SSM (subset string matching)',
};
const TYPE_NAMES: Record<string, string> = {
  repeat: 'Rep.',
  increase: 'Inc.',
  shuffle: 'Shuf.',
  correction: 'Cor.',
};
const LANGUAGE_NAMES: Record<string, string> = { en: 'En', zh: 'Zh' };

export interface RunReport {
  runId: string;
  label: string;
  source: RunRecord['source'];
  scoringMode: RunRecord['scoringMode'];
  contextWindow: number | null;
  datasetId: string;
  createdAt: string;
  samples: number;
  /** Sums over the samples; null where nothing is known (imported outputs carry no usage). */
  usage: { inputTokens: number | null; outputTokens: number | null; cost: number | null };
  niah: Record<string, Record<string, NiahTable>>;
  counting: Record<string, Record<string, CountingTable>>;
  /** "kg-en" … → metric → Table 2 (esm) / Table A4 (ssm) cell. */
  medical: Record<string, Record<string, MedicalScore>>;
  /** Figure 5: "kg-en" … → level → main ESM score (F1 or accuracy, ×100). */
  medicalByLevel: Record<string, Record<string, number>>;
  /** Figure A4: the same with SSM (accuracy, ×100). */
  medicalByLevelSsm: Record<string, Record<string, number>>;
  /**
   * Figure 2: each of the ten datasets' main ESM score ×100, or null when not run. NIAH and
   * Counting: accuracy (NIAH over the levels within the window); KG and Table: micro F1;
   * Term and Case: accuracy. The axes share one 0–100 scale; nothing is rescaled.
   */
  overview: Record<string, number | null>;
  /** Figure 6: counting ESM per context setting ("medical MIC", "generic MIC", "medical per-model maximum"). */
  countingSettings: Record<string, Tally>;
}

export interface MedOdysseyReport {
  suite: 'medodyssey';
  generatedAt: string;
  runs: RunReport[];
}

function sumKnown(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0);
}

/** Report labels: a label shared by several runs gets the run id's start, so rows stay apart. */
export function displayLabels(runs: ReadonlyArray<{ run: RunRecord }>): Map<string, string> {
  const counts = new Map<string, number>();
  for (const { run } of runs) counts.set(run.label, (counts.get(run.label) ?? 0) + 1);
  return new Map(
    runs.map(({ run }) => [
      run.id,
      (counts.get(run.label) ?? 0) > 1 ? `${run.label} #${run.id.slice(0, 6)}` : run.label,
    ]),
  );
}

/** The NIAH, Counting and medical tables of one run, under both metrics (Tables A2/A3, 3, 2/A4). */
export function medodysseyTables(
  results: readonly StoredResult[],
  contextWindow: number | null,
): Pick<RunReport, 'niah' | 'counting' | 'medical'> & { rowsOf: (task: string) => StoredResult[] } {
  // Each aggregate reads one task's rows: split once rather than filtering every row per table.
  const byTask = new Map<string, StoredResult[]>();
  for (const result of results) byTask.get(result.task)?.push(result) ?? byTask.set(result.task, [result]);
  const rowsOf = (task: string) => byTask.get(task) ?? [];
  const niah: RunReport['niah'] = {};
  const counting: RunReport['counting'] = {};
  for (const language of LANGUAGES) {
    for (const metric of MEDODYSSEY_METRICS) {
      const niahResult = niahTable({ results: rowsOf('niah'), language, metric, contextWindow });
      if (niahResult) niah[language] = { ...niah[language], [metric]: niahResult };
      const countingResult = countingTable({ results: rowsOf('counting'), language, metric });
      if (countingResult) counting[language] = { ...counting[language], [metric]: countingResult };
    }
  }
  const medical: RunReport['medical'] = {};
  for (const { task, language } of MEDICAL_DATASETS) {
    for (const metric of MEDODYSSEY_METRICS) {
      const score = medicalScore({ results: rowsOf(task), task, language, metric });
      if (score) medical[`${task}-${language}`] = { ...medical[`${task}-${language}`], [metric]: score };
    }
  }
  return { niah, counting, medical, rowsOf };
}

/**
 * Figure 2's ten datasets under one metric, ×100, null when not run: NIAH and Counting accuracy
 * (NIAH over the levels within the window), KG and Table micro F1, Term and Case accuracy.
 */
export function tenDatasetScores(
  tables: Pick<RunReport, 'niah' | 'counting' | 'medical'>,
  metric: (typeof MEDODYSSEY_METRICS)[number],
): Record<string, number | null> {
  const percentOf = (tally: Tally | undefined) =>
    tally && tally.counted > 0 ? (100 * tally.correct) / tally.counted : null;
  const scores: Record<string, number | null> = {
    'En.NIAH': percentOf(tables.niah.en?.[metric]?.all),
    'Zh.NIAH': percentOf(tables.niah.zh?.[metric]?.all),
    'En.Counting': percentOf(tables.counting.en?.[metric]?.all),
    'Zh.Counting': percentOf(tables.counting.zh?.[metric]?.all),
  };
  for (const { task, language, name } of MEDICAL_DATASETS) {
    const score = tables.medical[`${task}-${language}`]?.[metric];
    scores[name] = score ? (score.f1 ?? score.accuracy ?? null) : null;
  }
  return scores;
}

/** Aggregates stored runs into the report document (`medbench report --json`). */
export function buildMedOdysseyReport(
  runs: ReadonlyArray<{ run: RunRecord; results: readonly StoredResult[] }>,
): MedOdysseyReport {
  const labels = displayLabels(runs);
  return {
    suite: 'medodyssey',
    generatedAt: new Date().toISOString(),
    runs: runs.map(({ run, results }) => {
      const contextWindow = (run.model.contextWindow as number | null | undefined) ?? null;
      const { niah, counting, medical, rowsOf } = medodysseyTables(results, contextWindow);
      const medicalByLevel: RunReport['medicalByLevel'] = {};
      const medicalByLevelSsm: RunReport['medicalByLevelSsm'] = {};
      for (const { task, language } of MEDICAL_DATASETS) {
        const byLevel = medicalScoreByLevel({ results: rowsOf(task), task, language });
        if (byLevel) medicalByLevel[`${task}-${language}`] = byLevel;
        const byLevelSsm = medicalScoreByLevel({ results: rowsOf(task), task, language, metric: 'ssm' });
        if (byLevelSsm) medicalByLevelSsm[`${task}-${language}`] = byLevelSsm;
      }
      const overview: RunReport['overview'] = tenDatasetScores({ niah, counting, medical }, 'esm');
      return {
        runId: run.id,
        label: labels.get(run.id)!,
        source: run.source,
        scoringMode: run.scoringMode,
        contextWindow,
        datasetId: run.datasetId,
        createdAt: run.createdAt,
        samples: results.length,
        usage: {
          inputTokens: sumKnown(results.map((result) => result.inputTokens)),
          outputTokens: sumKnown(results.map((result) => result.outputTokens)),
          cost: sumKnown(results.map((result) => result.cost)),
        },
        niah,
        counting,
        medical,
        medicalByLevel,
        medicalByLevelSsm,
        overview,
        countingSettings: countingBySetting(rowsOf('counting')),
      };
    }),
  };
}

const fraction = (tally: Tally | null | undefined) => (tally ? `${tally.correct}/${tally.counted}` : '—');
const percent = (tally: Tally) =>
  tally.counted === 0 ? '—' : `${((100 * tally.correct) / tally.counted).toFixed(1)}%`;

function niahTextRows(report: MedOdysseyReport, language: string, metric: string) {
  const tables = report.runs.flatMap((run) => {
    const table = run.niah[language]?.[metric];
    return table ? [{ run, table }] : [];
  });
  if (tables.length === 0) return undefined;
  const levels = [...new Set(tables.flatMap(({ table }) => table.levels))].sort(
    (left, right) => left - right,
  );
  const depths = [...new Set(tables.flatMap(({ table }) => table.depths))].sort(
    (left, right) => left - right,
  );
  const rows: string[][] = [];
  for (const { run, table } of tables) {
    depths.forEach((depth, index) => {
      const cells = levels.map((level) => {
        const cell = table.cells[depth]?.[level];
        return cell === null ? '—' : cell ? String(cell.correct) : '';
      });
      rows.push([index === 0 ? run.label : '', `${depth}%`, ...cells, fraction(table.byDepth[depth])]);
    });
    rows.push(['', 'ALL', ...levels.map((level) => fraction(table.byLevel[level])), fraction(table.all)]);
  }
  return { header: ['Model', 'Depth', ...levels.map(levelName), 'ALL'], rows, tables };
}

function statusNote(tables: ReadonlyArray<{ run: RunReport; table: NiahTable | CountingTable }>): string {
  const notes = tables
    .filter(({ table }) => table.statuses.too_long + table.statuses.bad_format + table.statuses.error > 0)
    .map(
      ({ run, table }) =>
        `${run.label}: ${table.statuses.bad_format} bad_format, ${table.statuses.too_long} too_long, ${table.statuses.error} error`,
    );
  return notes.length > 0 ? `\n${notes.join('\n')}` : '';
}

/** Table 2 (ESM: P/R/F1 for KG and Table, accuracy for Term and Case) or Table A4 (SSM, accuracy). */
function medicalTableRows(
  report: MedOdysseyReport,
  metric: string,
): { title: string; header: string[]; rows: string[][] } | undefined {
  const runs = report.runs.filter((run) => Object.keys(run.medical).length > 0);
  if (runs.length === 0) return undefined;
  const prf = (task: string) => metric === 'esm' && (task === 'kg' || task === 'table');
  const header = ['Model'];
  for (const { task, name } of MEDICAL_DATASETS) {
    header.push(...(prf(task) ? [`${name} P`, `${name} R`, `${name} F1`] : [`${name} Acc`]));
  }
  const rows = runs.map((run) => {
    const cells = [run.label];
    for (const { task, language } of MEDICAL_DATASETS) {
      const score = run.medical[`${task}-${language}`]?.[metric];
      const value = (number: number | undefined) => (score && number !== undefined ? number.toFixed(2) : '—');
      cells.push(
        ...(prf(task)
          ? [value(score?.precision), value(score?.recall), value(score?.f1)]
          : [value(score?.accuracy)]),
      );
    }
    return cells;
  });
  const title = metric === 'esm' ? 'Medical tasks — ESM (Table 2)' : 'Medical tasks — SSM (Table A4)';
  return { title, header, rows };
}

function medicalTextTable(report: MedOdysseyReport, metric: string): string | undefined {
  const table = medicalTableRows(report, metric);
  return table ? `${table.title}\n${renderTextTable(table.header, table.rows)}` : undefined;
}

/** Figure 6: counting accuracy per model (runs of one label merged) and context setting. */
export function countingAblation(report: MedOdysseyReport): {
  settings: string[];
  models: Array<{ label: string; bySetting: Record<string, Tally> }>;
} {
  const byModel = new Map<string, Record<string, Tally>>();
  for (const run of report.runs) {
    const label = run.label.replace(/ #[0-9a-f]{6}$/, '');
    const merged = byModel.get(label) ?? {};
    for (const [setting, tally] of Object.entries(run.countingSettings)) {
      const total = merged[setting] ?? { correct: 0, counted: 0 };
      total.correct += tally.correct;
      total.counted += tally.counted;
      merged[setting] = total;
    }
    byModel.set(label, merged);
  }
  const settings = [...new Set([...byModel.values()].flatMap((bySetting) => Object.keys(bySetting)))].sort();
  return {
    settings,
    models: [...byModel]
      .filter(([, bySetting]) => Object.keys(bySetting).length > 0)
      .map(([label, bySetting]) => ({ label, bySetting })),
  };
}

type ByLevelKey = 'medicalByLevel' | 'medicalByLevelSsm';

/** Figure 5 (ESM) or A4 (SSM) as a table: a row per model and medical dataset, a column per level. */
function medicalByLevelTable(
  report: MedOdysseyReport,
  key: ByLevelKey = 'medicalByLevel',
): { header: string[]; rows: string[][] } | undefined {
  const runs = report.runs.filter((run) => Object.keys(run[key]).length > 0);
  if (runs.length === 0) return undefined;
  const levels = [
    ...new Set(
      runs.flatMap((run) => Object.values(run[key]).flatMap((byLevel) => Object.keys(byLevel).map(Number))),
    ),
  ].sort((left, right) => left - right);
  const rows = runs.flatMap((run) =>
    MEDICAL_DATASETS.filter(({ task, language }) => run[key][`${task}-${language}`]).map(
      ({ task, language, name }) => {
        const byLevel = run[key][`${task}-${language}`]!;
        return [
          run.label,
          name,
          ...levels.map((level) => (byLevel[level] === undefined ? '—' : byLevel[level]!.toFixed(2))),
        ];
      },
    ),
  );
  return { header: ['Model', 'Dataset', ...levels.map(levelName)], rows };
}

/** Tables A2/A3 (NIAH) and Table 3 (Counting) as plain text. */
export function renderMedOdysseyText(
  report: MedOdysseyReport,
  metrics: readonly string[] = MEDODYSSEY_METRICS,
): string {
  const sections: string[] = [];
  for (const metric of metrics) {
    for (const language of LANGUAGES) {
      const niah = niahTextRows(report, language, metric);
      if (!niah) continue;
      sections.push(
        `${LANGUAGE_NAMES[language]}.NIAH — ${METRIC_NAMES[metric]}: correct per length × depth; — = level beyond the model's context window\n${renderTextTable(niah.header, niah.rows)}${statusNote(niah.tables)}`,
      );
    }
    const countingRuns = report.runs.filter((run) =>
      LANGUAGES.some((language) => run.counting[language]?.[metric]),
    );
    if (countingRuns.length > 0) {
      const header = ['Model'];
      for (const language of LANGUAGES) {
        header.push(
          ...COUNTING_TYPES.map((type) => `${LANGUAGE_NAMES[language]} ${TYPE_NAMES[type]}`),
          `${LANGUAGE_NAMES[language]} All`,
        );
      }
      const rows = countingRuns.map((run) => {
        const cells = [run.label];
        for (const language of LANGUAGES) {
          const table = run.counting[language]?.[metric];
          cells.push(
            ...COUNTING_TYPES.map((type) => (table ? String(table.byType[type]?.correct ?? 0) : '—')),
            fraction(table?.all),
          );
        }
        return cells;
      });
      const tables = countingRuns.flatMap((run) =>
        LANGUAGES.flatMap((language) => {
          const table = run.counting[language]?.[metric];
          return table ? [{ run, table }] : [];
        }),
      );
      sections.push(
        `Counting — ${METRIC_NAMES[metric]}: correct per type\n${renderTextTable(header, rows)}${statusNote(tables)}`,
      );
    }
  }
  for (const metric of metrics) {
    const table = medicalTextTable(report, metric);
    if (table) sections.push(table);
  }
  const ablation = countingAblation(report);
  if (ablation.settings.length > 1) {
    sections.push(
      `Counting — ESM by context setting (Figure 6)\n${renderTextTable(
        ['Model', ...ablation.settings],
        ablation.models.map((model) => [
          model.label,
          ...ablation.settings.map((setting) => fraction(model.bySetting[setting])),
        ]),
      )}`,
    );
  }
  for (const [key, title] of [
    ['medicalByLevel', 'Medical tasks — ESM score against context length (Figure 5)'],
    ['medicalByLevelSsm', 'Medical tasks — SSM accuracy against context length (Figure A4)'],
  ] as const) {
    if (key === 'medicalByLevelSsm' && !metrics.includes('ssm')) continue;
    if (key === 'medicalByLevel' && !metrics.includes('esm')) continue;
    const byLevel = medicalByLevelTable(report, key);
    if (byLevel) sections.push(`${title}\n${renderTextTable(byLevel.header, byLevel.rows)}`);
  }
  const imported = report.runs.filter((run) => run.scoringMode === 'compat').map((run) => run.label);
  if (imported.length > 0) {
    sections.push(
      `Scored in compat mode (the published scorer's rules, see docs/scoring.md): ${imported.join(', ')}`,
    );
  }
  return sections.join('\n\n');
}

function niahHeatmap(run: RunReport, table: NiahTable, metric: string): string {
  return renderHeatmap({
    title: `${run.label} — ${LANGUAGE_NAMES[table.language]}.NIAH ${metric.toUpperCase()}`,
    rowLabels: table.depths.map((depth) => `${depth}%`),
    columnLabels: table.levels.map(levelName),
    rowAxis: 'needle depth',
    columnAxis: 'context length (tokens)',
    cells: table.depths.map((depth) =>
      table.levels.map((level) => {
        const cell = table.cells[depth]?.[level];
        if (!cell) return { value: null, label: '—' };
        return { value: cell.counted ? cell.correct / cell.counted : null, label: fraction(cell) };
      }),
    ),
  });
}

function htmlTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return `<table><thead><tr>${header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** A self-contained HTML report: tables, NIAH heatmaps (ESM and SSM) and counting bar charts. */
export function renderMedOdysseyHtml(report: MedOdysseyReport): string {
  const body: string[] = [
    '<h1>MedOdyssey — NIAH and Counting</h1>',
    `<p class="meta">Generated ${escapeHtml(report.generatedAt)} by medbench. Every colour has its value written beside it; the scale is viridis (0 → dark purple, 1 → yellow).</p>`,
    htmlTable(
      ['Model', 'Source', 'Scoring', 'Context window', 'Samples', 'Input tokens', 'Output tokens', 'Cost'],
      report.runs.map((run) => [
        run.label,
        run.source,
        run.scoringMode,
        run.contextWindow === null ? 'unknown' : String(run.contextWindow),
        String(run.samples),
        run.usage.inputTokens === null ? '—' : String(run.usage.inputTokens),
        run.usage.outputTokens === null ? '—' : String(run.usage.outputTokens),
        run.usage.cost === null ? '—' : run.usage.cost.toFixed(4),
      ]),
    ),
  ];
  for (const metric of MEDODYSSEY_METRICS) {
    for (const language of LANGUAGES) {
      const niah = niahTextRows(report, language, metric);
      if (!niah) continue;
      body.push(
        `<h2>${LANGUAGE_NAMES[language]}.NIAH — ${escapeHtml(METRIC_NAMES[metric]!)}</h2>`,
        `<div class="grid">${niah.tables.map(({ run, table }) => `<figure>${niahHeatmap(run, table, metric)}</figure>`).join('')}</div>`,
        '<details><summary>Table (correct per cell)</summary>',
        htmlTable(niah.header, niah.rows),
        '</details>',
      );
    }
    const countingRuns = report.runs.filter((run) =>
      LANGUAGES.some((language) => run.counting[language]?.[metric]),
    );
    for (const language of LANGUAGES) {
      const runs = countingRuns.filter((run) => run.counting[language]?.[metric]);
      if (runs.length === 0) continue;
      const maximum = Math.max(
        1,
        ...runs.flatMap((run) =>
          COUNTING_TYPES.map((type) => run.counting[language]![metric]!.byType[type]?.counted ?? 0),
        ),
      );
      body.push(
        `<h2>${LANGUAGE_NAMES[language]}.Counting — ${escapeHtml(METRIC_NAMES[metric]!)}</h2>`,
        renderGroupedBarChart({
          title: `${LANGUAGE_NAMES[language]}.Counting: correct per type (${metric.toUpperCase()})`,
          groups: COUNTING_TYPES.map((type) => TYPE_NAMES[type]!),
          series: runs.map((run) => run.label),
          values: COUNTING_TYPES.map((type) =>
            runs.map((run) => run.counting[language]![metric]!.byType[type]?.correct ?? 0),
          ),
          maximum,
          valueLabel: (value) => String(value),
        }),
        htmlTable(
          ['Model', ...COUNTING_TYPES.map((type) => TYPE_NAMES[type]!), 'All', 'Accuracy'],
          runs.map((run) => {
            const table = run.counting[language]![metric]!;
            return [
              run.label,
              ...COUNTING_TYPES.map((type) => fraction(table.byType[type])),
              fraction(table.all),
              percent(table.all),
            ];
          }),
        ),
      );
    }
  }
  for (const metric of MEDODYSSEY_METRICS) {
    const table = medicalTableRows(report, metric);
    if (table) body.push(`<h2>${escapeHtml(table.title)}</h2>`, htmlTable(table.header, table.rows));
  }
  for (const [key, heading, metricName] of [
    ['medicalByLevel', 'Medical tasks — ESM score against context length (Figure 5)', 'ESM'],
    ['medicalByLevelSsm', 'Medical tasks — SSM accuracy against context length (Figure A4)', 'SSM'],
  ] as const) {
    const withLevels = report.runs.filter((run) => Object.keys(run[key]).length > 0);
    if (withLevels.length === 0) continue;
    body.push(`<h2>${heading}</h2><div class="grid">`);
    for (const { task, language, name } of MEDICAL_DATASETS) {
      const dataset = `${task}-${language}`;
      const runs = withLevels.filter((run) => run[key][dataset]);
      if (runs.length === 0) continue;
      const levels = [...new Set(runs.flatMap((run) => Object.keys(run[key][dataset]!).map(Number)))].sort(
        (a, b) => a - b,
      );
      const measure = key === 'medicalByLevel' && (task === 'kg' || task === 'table') ? 'F1' : 'accuracy';
      body.push(
        `<figure>${renderLineChart({
          title: `${name}: ${metricName} ${measure} by context length`,
          xLabels: levels.map(levelName),
          yLabel: 'score ×100',
          series: runs.map((run) => ({
            name: run.label,
            values: levels.map((level) => run[key][dataset]![level]),
          })),
        })}</figure>`,
      );
    }
    body.push('</div>');
  }
  const ablation = countingAblation(report);
  if (ablation.settings.length > 1) {
    body.push(
      '<h2>Counting — ESM by context setting (Figure 6)</h2>',
      renderGroupedBarChart({
        title: 'Counting accuracy (%) by context setting',
        groups: ablation.settings,
        series: ablation.models.map((model) => model.label),
        values: ablation.settings.map((setting) =>
          ablation.models.map((model) => {
            const tally = model.bySetting[setting];
            return tally?.counted ? (100 * tally.correct) / tally.counted : 0;
          }),
        ),
        maximum: 100,
        valueLabel: (value) => value.toFixed(1),
      }),
    );
  }
  const axes = Object.keys(report.runs[0]?.overview ?? {});
  const ranked = report.runs.filter((run) => Object.values(run.overview).some((value) => value !== null));
  if (ranked.length > 0) {
    body.push(
      '<h2>Overview of the ten datasets (Figure 2)</h2>',
      '<p class="meta">Each axis is the dataset\'s main ESM score ×100 on one shared 0–100 scale (NIAH and Counting: accuracy; KG and Table: micro F1; Term and Case: accuracy); nothing is rescaled, and a dataset not run sits at 0 and reads — in the table.</p>',
      renderRadar({
        title: 'MedOdyssey: main ESM score per dataset',
        axes,
        series: ranked.map((run) => ({
          name: run.label,
          values: axes.map((axis) => run.overview[axis] ?? undefined),
        })),
      }),
      htmlTable(
        ['Model', ...axes],
        ranked.map((run) => [
          run.label,
          ...axes.map((axis) => (run.overview[axis] === null ? '—' : run.overview[axis]!.toFixed(2))),
        ]),
      ),
    );
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>medbench — MedOdyssey report</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans","WenQuanYi Micro Hei",sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.25rem}
table{border-collapse:collapse;margin:.75rem 0;font-size:.85rem}th,td{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}
th:first-child,td:first-child{text-align:left}.grid{display:flex;flex-wrap:wrap;gap:1rem}figure{margin:0}.meta{color:#555}
</style></head><body>
${body.join('\n')}
</body></html>
`;
}
