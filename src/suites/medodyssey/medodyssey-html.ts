import { escapeHtml } from '../../report/escape-html.js';
import { htmlCell, plainCell } from '../../report/interval-cell.js';
import { intervalText } from '../../report/interval-text.js';
import { renderGroupedBarChart } from '../../report/svg-bar-chart.js';
import { heatmapUncertainty, renderHeatmap } from '../../report/svg-heatmap.js';
import { renderLineChart } from '../../report/svg-line-chart.js';
import { renderRadar } from '../../report/svg-radar.js';
import type { NiahTable } from './aggregate.js';
import { MEDICAL_DATASETS } from './aggregate.js';
import { COUNTING_TYPES, LANGUAGES, levelName } from './constants.js';
import { controlTables } from './control-tables.js';
import { effectiveLengthReportTable } from './effective-length-text.js';
import { intervalsReportTable } from './medodyssey-intervals-text.js';
import { LANGUAGE_NAMES, MEDODYSSEY_METRICS, METRIC_NAMES, TYPE_NAMES } from './medodyssey-labels.js';
import type { MedOdysseyReport, RunReport } from './medodyssey-report.js';
import {
  ablationGaps,
  countingAblation,
  fraction,
  medicalTableRows,
  missingNote,
  NOT_RUN,
  niahErrorRows,
  niahTextRows,
  percent,
} from './medodyssey-text.js';

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
        if (!cell) return { value: null, label: cell === null ? '—' : NOT_RUN };
        const value = cell.counted ? cell.correct / cell.counted : null;
        return { value, label: plainCell(fraction(cell)), ...heatmapUncertainty(value, cell.interval) };
      }),
    ),
  });
}

function htmlTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return `<table><thead><tr>${header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((cell) => `<td>${htmlCell(cell)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

const accuracy = (tally: { correct: number; counted: number } | undefined) =>
  tally && tally.counted > 0 ? (100 * tally.correct) / tally.counted : 0;

function notes(lines: readonly string[]): string {
  return lines.length === 0
    ? ''
    : `<ul class="meta">${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`;
}

/** The runs, with their usage. */
function runsSection(report: MedOdysseyReport): string[] {
  return [
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
}

/** NIAH heatmaps and tables of one metric, per language. */
function niahSections(report: MedOdysseyReport, metric: string): string[] {
  const body: string[] = [];
  for (const language of LANGUAGES) {
    const niah = niahTextRows(report, language, metric);
    if (!niah) continue;
    body.push(
      `<h2>${LANGUAGE_NAMES[language]}.NIAH — ${escapeHtml(METRIC_NAMES[metric]!)}</h2>`,
      `<div class="grid">${niah.tables.map(({ run, table }) => `<figure>${niahHeatmap(run, table, metric)}</figure>`).join('')}</div>`,
      `<details><summary>Table (correct per cell; ${escapeHtml(niah.legend)})</summary>`,
      htmlTable(niah.header, niah.rows),
      '</details>',
    );
  }
  return body;
}

/** Counting bar charts and tables of one metric, per language. */
function countingSections(report: MedOdysseyReport, metric: string): string[] {
  const body: string[] = [];
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
  return body;
}

/** Tables 2/A4: the medical tasks. */
function medicalSections(report: MedOdysseyReport): string[] {
  const body: string[] = [];
  for (const metric of MEDODYSSEY_METRICS) {
    const table = medicalTableRows(report, metric);
    if (!table) continue;
    body.push(
      `<h2>${escapeHtml(table.title)}</h2>`,
      htmlTable(table.header, table.rows),
      notes([
        ...table.ownNotes,
        ...(metric === 'esm' ? missingNote(report, ['kg', 'term', 'table', 'case']) : []),
      ]),
    );
  }
  return body;
}

/** Figures 5/A4: medical-task scores against context length. */
function levelCurveSections(report: MedOdysseyReport): string[] {
  const body: string[] = [];
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
  return body;
}

/** Figure 6: Counting by context setting. */
function ablationSection(report: MedOdysseyReport): string[] {
  const body: string[] = [];
  const ablation = countingAblation(report);
  if (ablation.models.length > 0) {
    const series = ablation.models.flatMap((model) =>
      ablation.settings
        .filter((setting) => model.bySetting[setting])
        .map((setting) => ({ name: `${model.label} — ${setting}`, entry: model.bySetting[setting]! })),
    );
    body.push(
      '<h2>Counting — ESM by context setting (Figure 6)</h2>',
      renderGroupedBarChart({
        title: 'Counting accuracy (%) per type and context setting (labels: correct/counted)',
        groups: [...COUNTING_TYPES.map((type) => TYPE_NAMES[type]!), 'All'],
        series: series.map((item) => item.name),
        values: [
          ...COUNTING_TYPES.map((type) => series.map((item) => accuracy(item.entry.byType[type]))),
          series.map((item) => accuracy(item.entry.all)),
        ],
        labels: [
          ...COUNTING_TYPES.map((type) => series.map((item) => plainCell(fraction(item.entry.byType[type])))),
          series.map((item) => plainCell(fraction(item.entry.all))),
        ],
        maximum: 100,
        valueLabel: (value) => value.toFixed(0),
      }),
      htmlTable(
        ['Model', 'Setting', ...COUNTING_TYPES.map((type) => TYPE_NAMES[type]!), 'All', 'Accuracy'],
        series.map((item) => [
          item.name.split(' — ')[0]!,
          item.name.split(' — ')[1]!,
          ...COUNTING_TYPES.map((type) => fraction(item.entry.byType[type])),
          fraction(item.entry.all),
          percent(item.entry.all),
        ]),
      ),
      notes(ablationGaps(ablation.settings)),
    );
  }
  return body;
}

/** The NIAH error analysis per metric. */
function errorSections(report: MedOdysseyReport): string[] {
  const body: string[] = [];
  for (const metric of MEDODYSSEY_METRICS) {
    const errors = niahErrorRows(report, metric);
    if (errors.rows.length === 0) continue;
    body.push(
      `<h2>NIAH errors — ${escapeHtml(METRIC_NAMES[metric]!)}</h2>`,
      '<p class="meta">Wrong of counted per needle type and depth, over the levels within each model\'s window.</p>',
      htmlTable(errors.header, errors.rows),
      notes([
        `All rows: ${errors.totals.general} errors on general needles, ${errors.totals.med} on medical ones.`,
      ]),
    );
  }
  return body;
}

/** Figure 2: the ten datasets on one radar. */
function overviewSection(report: MedOdysseyReport): string[] {
  const body: string[] = [];
  const axes = Object.keys(report.runs[0]?.overview ?? {});
  const ranked = report.runs.filter((run) => Object.values(run.overview).some((value) => value !== null));
  if (ranked.length > 0) {
    body.push(
      '<h2>Overview of the ten datasets (Figure 2)</h2>',
      '<p class="meta">Each axis is the dataset\'s main ESM score ×100 on one shared 0–100 scale (NIAH and Counting: accuracy; KG and Table: micro F1; Term and Case: accuracy); nothing is rescaled; a dataset not run is left out of the polygon (not drawn as 0) and reads — in the table.</p>',
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
          ...axes.map((axis) => intervalText(run.overview[axis], run.overviewIntervals?.[axis], 2)),
        ]),
      ),
    );
    const intervals = intervalsReportTable(report);
    if (intervals) body.push(`<p class="meta">${escapeHtml(intervals.title)}</p>`);
  }
  return body;
}

/** Each run's effective length per dataset under both rules, levels' scores and token lengths (the text report's table). */
function effectiveLengthSection(report: MedOdysseyReport): string[] {
  const table = effectiveLengthReportTable(report);
  if (!table) return [];
  return [
    '<h2>Effective length (RULER and NoLiMa rules)</h2>',
    `<p class="meta">${escapeHtml(table.title)}</p>`,
    htmlTable(table.header, table.rows),
  ];
}

/** A self-contained HTML report: tables, NIAH heatmaps (ESM and SSM) and counting bar charts. */
export function renderMedOdysseyHtml(report: MedOdysseyReport): string {
  const body: string[] = [
    '<h1>MedOdyssey</h1>',
    `<p class="meta">Generated ${escapeHtml(report.generatedAt)} by medbench. Every colour has its value written beside it; the scale is viridis (0 → dark purple, 1 → yellow).</p>`,
    ...runsSection(report),
  ];
  for (const metric of MEDODYSSEY_METRICS)
    body.push(...niahSections(report, metric), ...countingSections(report, metric));
  body.push(
    notes(missingNote(report, ['niah', 'counting'])),
    ...medicalSections(report),
    ...levelCurveSections(report),
    ...ablationSection(report),
    ...errorSections(report),
    ...effectiveLengthSection(report),
    ...overviewSection(report),
    ...controlTables(report).map(
      (table) => `<h2>${escapeHtml(table.title)}</h2>${htmlTable(table.header, table.rows)}`,
    ),
  );
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
