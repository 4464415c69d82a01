import type { ReportInterval } from '../../metrics/uncertainty/index.js';
import { cellWithInterval, tallyCell } from '../../report/interval-cell.js';
import { intervalText } from '../../report/interval-text.js';
import { renderReportTable } from '../../report/text-table.js';
import { ablationLabel, withMergedIntervals } from './ablation-intervals.js';
import type { CountingTable, NiahTable, Tally } from './aggregate.js';
import { MEDICAL_DATASETS } from './aggregate.js';
import { COUNTING_TYPES, LANGUAGES, levelName } from './constants.js';
import { controlTables } from './control-tables.js';
import { effectiveLengthReportTable } from './effective-length-text.js';
import { medicalByLevelTable } from './medical-by-level-text.js';
import { intervalsReportTable } from './medodyssey-intervals-text.js';
import {
  COUNTING_SETTINGS,
  datasetName,
  LANGUAGE_NAMES,
  MEDODYSSEY_METRICS,
  METRIC_NAMES,
  NEEDLE_TYPE_NAMES,
  TYPE_NAMES,
} from './medodyssey-labels.js';
import type { MedOdysseyReport, RunReport } from './medodyssey-report.js';

/** `12/20`, and under it (in a report with intervals) the 95% interval of the fraction correct. */
export const fraction = (tally: Tally | null | undefined) =>
  tally ? tallyCell(`${tally.correct}/${tally.counted}`, tally) : '—';
export const percent = (tally: Tally) =>
  tally.counted === 0 ? '—' : `${((100 * tally.correct) / tally.counted).toFixed(1)}%`;

/** A NIAH cell, total or level a run has no sample of: not run (a limited run, or its dataset lacks it). */
export const NOT_RUN = '·';

const BEYOND_LEGEND = "— = level beyond the model's context window";
const NOT_RUN_LEGEND = `${NOT_RUN} = not run (a limited run, or a level or depth its dataset lacks)`;

/** Tables A2/A3: rows per run and depth, a column per level, — beyond the window, · not run. */
export function niahTextRows(report: MedOdysseyReport, language: string, metric: string) {
  const tables = report.runs.flatMap((run) => {
    const table = run.niah[language]?.[metric];
    return table ? [{ run, table }] : [];
  });
  if (tables.length === 0) return undefined;
  const levels = [...new Set(tables.flatMap(({ table }) => table.levels))].sort((a, b) => a - b);
  const depths = [...new Set(tables.flatMap(({ table }) => table.depths))].sort((a, b) => a - b);
  // null: beyond the window (—); undefined: the run has no such sample (·).
  const shown = (tally: Tally | null | undefined, text: (tally: Tally) => string) =>
    tally === null ? '—' : tally === undefined ? NOT_RUN : text(tally);
  const rows: string[][] = [];
  for (const { run, table } of tables) {
    depths.forEach((depth, index) => {
      const cells = levels.map((level) =>
        shown(table.cells[depth]?.[level], (cell) => tallyCell(String(cell.correct), cell)),
      );
      rows.push([index === 0 ? run.label : '', `${depth}%`, ...cells, shown(table.byDepth[depth], fraction)]);
    });
    rows.push([
      '',
      'ALL',
      ...levels.map((level) => shown(table.byLevel[level], fraction)),
      fraction(table.all),
    ]);
  }
  const notRun = rows.some((row) => row.includes(NOT_RUN));
  const legend = notRun ? `${BEYOND_LEGEND}; ${NOT_RUN_LEGEND}` : BEYOND_LEGEND;
  return { header: ['Model', 'Depth', ...levels.map(levelName), 'ALL'], rows, tables, legend };
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

/** Lines saying which released files lack part of the grid, for the given tasks. */
export function missingNote(report: MedOdysseyReport, tasks: readonly string[]): string[] {
  return report.runs.flatMap((run) =>
    run.missingOutputs
      .filter((missing) => tasks.includes(missing.task))
      .map((missing) => {
        const what =
          missing.task === 'niah'
            ? missing.missing.join(', ')
            : `no output for ids ${missing.missing.join(', ')}`;
        return `${run.label}: ${missing.file} holds ${missing.outputs} of the ${missing.expected} samples (${what}); its cells count the ${missing.outputs} present.`;
      }),
  );
}

/** Table 3 (Counting) under one metric: correct per type and language, a row per run. */
export function countingReportTable(report: MedOdysseyReport, metric: string) {
  const runs = report.runs.filter((run) => LANGUAGES.some((language) => run.counting[language]?.[metric]));
  if (runs.length === 0) return undefined;
  const header = ['Model'];
  for (const language of LANGUAGES) {
    header.push(
      ...COUNTING_TYPES.map((type) => `${LANGUAGE_NAMES[language]} ${TYPE_NAMES[type]}`),
      `${LANGUAGE_NAMES[language]} All`,
    );
  }
  const rows = runs.map((run) => {
    const cells = [run.label];
    for (const language of LANGUAGES) {
      const table = run.counting[language]?.[metric];
      cells.push(
        ...COUNTING_TYPES.map((type) =>
          table ? tallyCell(String(table.byType[type]?.correct ?? 0), table.byType[type]) : '—',
        ),
        fraction(table?.all),
      );
    }
    return cells;
  });
  const tables = runs.flatMap((run) =>
    LANGUAGES.flatMap((language) => {
      const table = run.counting[language]?.[metric];
      return table ? [{ run, table }] : [];
    }),
  );
  const title = `Counting — ${METRIC_NAMES[metric]}: correct per type (Table 3; medical haystack, identical context)`;
  return { name: `counting-${metric}`, title, header, rows, tables };
}

function countingTextTable(report: MedOdysseyReport, metric: string): string | undefined {
  const table = countingReportTable(report, metric);
  if (!table) return undefined;
  const missing = missingNote(report, ['counting']);
  return `${renderReportTable(table)}${statusNote(table.tables)}${missing.length > 0 ? `\n${missing.join('\n')}` : ''}`;
}

/** Table 2 (ESM: P/R/F1 for KG and Table, accuracy for Term and Case) or Table A4 (SSM, accuracy). */
export function medicalTableRows(
  report: MedOdysseyReport,
  metric: string,
): { title: string; header: string[]; rows: string[][]; ownNotes: string[] } | undefined {
  const runs = report.runs.filter((run) => Object.keys(run.medical).length > 0);
  if (runs.length === 0) return undefined;
  const prf = (task: string) => metric === 'esm' && (task === 'kg' || task === 'table');
  const header = ['Model'];
  for (const { task, name } of MEDICAL_DATASETS) {
    header.push(...(prf(task) ? [`${name} P`, `${name} R`, `${name} F1`] : [`${name} Acc`]));
  }
  const ownNotes: string[] = [];
  const two = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(2));
  const rows = runs.map((run) => {
    const cells = [run.label];
    for (const { task, language, name } of MEDICAL_DATASETS) {
      const score = run.medical[`${task}-${language}`]?.[metric];
      const shown = (key: 'precision' | 'recall' | 'f1' | 'accuracy') =>
        score ? cellWithInterval(two(score[key]), score.intervals?.[key]) : '—';
      cells.push(...(prf(task) ? [shown('precision'), shown('recall'), shown('f1')] : [shown('accuracy')]));
      if (score?.own) {
        const values = (cell: typeof score.own) =>
          (prf(task) ? (['precision', 'recall', 'f1'] as const) : (['accuracy'] as const))
            .map((key) => intervalText(cell[key], cell.intervals?.[key], 2))
            .join(' / ');
        ownNotes.push(
          `${run.label} ${name}: ${values(score)} by the published scorer's rules (compat, shown above); ${values(score.own)} by medbench's own rules.`,
        );
      }
    }
    return cells;
  });
  const title = metric === 'esm' ? 'Medical tasks — ESM (Table 2)' : 'Medical tasks — SSM (Table A4)';
  return { title, header, rows, ownNotes };
}

/** Figure 6: counting ESM per model, context setting and type (runs of one label merged). */
export function countingAblation(report: MedOdysseyReport): {
  settings: string[];
  models: Array<{ label: string; bySetting: Record<string, { all: Tally; byType: Record<string, Tally> }> }>;
} {
  const byModel = new Map<string, Record<string, { all: Tally; byType: Record<string, Tally> }>>();
  const merge = (into: Tally, tally: Tally) => {
    // One run's tally keeps its interval; runs of one label merged get their merged rows' (below).
    into.interval = into.counted === 0 ? tally.interval : undefined;
    into.correct += tally.correct;
    into.counted += tally.counted;
  };
  for (const run of report.runs) {
    const label = ablationLabel(run.label);
    const merged = byModel.get(label) ?? {};
    for (const [setting, entry] of Object.entries(run.countingSettings)) {
      const total = merged[setting] ?? { all: { correct: 0, counted: 0 }, byType: {} };
      merge(total.all, entry.all);
      for (const [type, tally] of Object.entries(entry.byType)) {
        total.byType[type] ??= { correct: 0, counted: 0 };
        merge(total.byType[type]!, tally);
      }
      merged[setting] = total;
    }
    byModel.set(label, merged);
  }
  withMergedIntervals(byModel, report.countingAblationIntervals);
  const present = new Set([...byModel.values()].flatMap((bySetting) => Object.keys(bySetting)));
  const settings = [
    ...COUNTING_SETTINGS.filter((setting) => present.has(setting)),
    ...[...present].filter((setting) => !(COUNTING_SETTINGS as readonly string[]).includes(setting)).sort(),
  ];
  return {
    settings,
    models: [...byModel]
      .filter(([, bySetting]) => Object.keys(bySetting).length > 1)
      .map(([label, bySetting]) => ({ label, bySetting })),
  };
}

/** What Figure 6 cannot show: settings no run has (the per-model maximum was never released). */
export function ablationGaps(settings: readonly string[]): string[] {
  return COUNTING_SETTINGS.filter((setting) => !settings.includes(setting)).map((setting) =>
    setting === 'medical per-model maximum'
      ? "medical per-model maximum: no outputs here. The authors did not release this setting (the paper's third bar); build it with `--mic per-model --task counting` and run it to fill the column."
      : `${setting}: no outputs here.`,
  );
}

/** Figure 6 as a table: a row per model and context setting, a column per type. */
export function ablationTable(report: MedOdysseyReport) {
  const ablation = countingAblation(report);
  if (ablation.models.length === 0) return undefined;
  const rows = ablation.models.flatMap((model) =>
    ablation.settings
      .filter((setting) => model.bySetting[setting])
      .map((setting, index) => {
        const entry = model.bySetting[setting]!;
        return [
          index === 0 ? model.label : '',
          setting,
          ...COUNTING_TYPES.map((type) => fraction(entry.byType[type])),
          fraction(entry.all),
        ];
      }),
  );
  return {
    name: 'counting-settings',
    title: 'Counting — ESM by context setting and type (Figure 6)',
    header: ['Model', 'Setting', ...COUNTING_TYPES.map((type) => TYPE_NAMES[type]!), 'All'],
    rows,
    gaps: ablationGaps(ablation.settings),
  };
}

function ablationText(report: MedOdysseyReport): string | undefined {
  const table = ablationTable(report);
  if (!table) return undefined;
  return `${renderReportTable(table)}${table.gaps.length > 0 ? `\n${table.gaps.join('\n')}` : ''}`;
}

/** NIAH error analysis rows: per run and language, errors by needle type and depth. */
export function niahErrorRows(report: MedOdysseyReport, metric: string) {
  const depths = [
    ...new Set(
      report.runs.flatMap((run) =>
        Object.values(run.niahErrors).flatMap((byMetric) => Object.keys(byMetric[metric]?.byDepth ?? {})),
      ),
    ),
  ].sort((a, b) => Number(a) - Number(b));
  const rows: string[][] = [];
  const totals = { general: 0, med: 0 };
  for (const run of report.runs) {
    for (const language of LANGUAGES) {
      const table = run.niahErrors[language]?.[metric];
      if (!table) continue;
      const ci = run.niahErrorIntervals?.[language]?.[metric];
      const of = (entry: { errors: number; counted: number } | undefined, interval?: ReportInterval) =>
        entry ? cellWithInterval(`${entry.errors}/${entry.counted}`, interval, { unit: '%' }) : '—';
      totals.general += table.byNeedleType.general?.errors ?? 0;
      totals.med += table.byNeedleType.med?.errors ?? 0;
      rows.push([
        run.label,
        datasetName(language, 'niah'),
        of(table, ci?.errors),
        of(table.byNeedleType.general, ci?.byNeedleType.general),
        of(table.byNeedleType.med, ci?.byNeedleType.med),
        ...depths.map((depth) => of(table.byDepth[depth], ci?.byDepth[depth])),
        String(table.badFormat),
        String(table.tooLong),
      ]);
    }
  }
  const header = [
    'Model',
    'Dataset',
    'Errors',
    `${NEEDLE_TYPE_NAMES.general} needles`,
    `${NEEDLE_TYPE_NAMES.med} needles`,
    ...depths.map((depth) => `${depth}%`),
    'of which bad_format',
    'too_long',
  ];
  return { header, rows, totals };
}

/** The NIAH error analysis under one metric as a table, with the totals over its rows. */
export function niahErrorTable(report: MedOdysseyReport, metric: string) {
  const { header, rows, totals } = niahErrorRows(report, metric);
  if (rows.length === 0) return undefined;
  const title = `NIAH errors — ${METRIC_NAMES[metric]}: wrong of counted, per needle type and depth, over the levels within each model's window`;
  return { name: `niah-errors-${metric}`, title, header, rows, totals };
}

function errorAnalysisText(report: MedOdysseyReport, metric: string): string | undefined {
  const table = niahErrorTable(report, metric);
  if (!table) return undefined;
  const { totals } = table;
  const ratio = totals.med > 0 ? (totals.general / totals.med).toFixed(2) : '—';
  return `${renderReportTable(table)}\nAll rows: ${totals.general} errors on general needles, ${totals.med} on medical ones (ratio ${ratio} : 1).`;
}

/** Figures 5 and A4 as tables: their key in a run, title, metric and table name. */
export const BY_LEVEL_TABLES = [
  [
    'medicalByLevel',
    'Medical tasks — ESM score against context length (Figure 5)',
    'esm',
    'medical-by-level-esm',
  ],
  [
    'medicalByLevelSsm',
    'Medical tasks — SSM accuracy against context length (Figure A4)',
    'ssm',
    'medical-by-level-ssm',
  ],
] as const;

/** Tables A2/A3 under one metric and language: its name and title (with the legend) beside its rows. */
export function niahReportTable(report: MedOdysseyReport, language: string, metric: string) {
  const niah = niahTextRows(report, language, metric);
  if (!niah) return undefined;
  const title = `${LANGUAGE_NAMES[language]}.NIAH — ${METRIC_NAMES[metric]}: correct per length × depth; ${niah.legend}`;
  return { name: `niah-${language}-${metric}`, title, ...niah };
}

/** Tables A2/A3 (NIAH), Table 3 (Counting), Tables 2/A4, Figures 6/5/A4 and the NIAH error analysis as text. */
export function renderMedOdysseyText(
  report: MedOdysseyReport,
  metrics: readonly string[] = MEDODYSSEY_METRICS,
): string {
  const sections: string[] = [];
  for (const metric of metrics) {
    for (const language of LANGUAGES) {
      const niah = niahReportTable(report, language, metric);
      if (niah) sections.push(`${renderReportTable(niah)}${statusNote(niah.tables)}`);
    }
    const counting = countingTextTable(report, metric);
    if (counting) sections.push(counting);
  }
  const niahMissing = missingNote(report, ['niah']);
  if (niahMissing.length > 0) sections.push(niahMissing.join('\n'));
  for (const metric of metrics) {
    const table = medicalTableRows(report, metric);
    if (!table) continue;
    const notes = [
      ...table.ownNotes,
      ...(metric === metrics[0] ? missingNote(report, ['kg', 'term', 'table', 'case']) : []),
    ];
    sections.push(`${renderReportTable(table)}${notes.length > 0 ? `\n${notes.join('\n')}` : ''}`);
  }
  const ablation = ablationText(report);
  if (ablation) sections.push(ablation);
  for (const [key, title, metric] of BY_LEVEL_TABLES) {
    if (!metrics.includes(metric)) continue;
    const byLevel = medicalByLevelTable(report, key);
    if (byLevel) sections.push(renderReportTable({ title, ...byLevel }));
  }
  for (const metric of metrics) {
    const errors = errorAnalysisText(report, metric);
    if (errors) sections.push(errors);
  }
  const effective = effectiveLengthReportTable(report);
  if (effective) sections.push(renderReportTable(effective));
  const intervals = intervalsReportTable(report);
  if (intervals) sections.push(renderReportTable(intervals));
  sections.push(...controlTables(report).map(renderReportTable));
  const imported = report.runs.filter((run) => run.scoring === 'compat').map((run) => run.label);
  if (imported.length > 0) {
    sections.push(
      `Scored in compat mode (the published scorer's rules, see docs/scoring.md): ${imported.join(', ')}`,
    );
  }
  return sections.join('\n\n');
}
