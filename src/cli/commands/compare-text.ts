import type { CompareDocument } from '../../compose/compare-document.js';
import { renderReportTable } from '../../report/text-table.js';

type Row = CompareDocument['tasks'][number] | (NonNullable<CompareDocument['overall']> & { task?: string });

/** A fraction in percent with one decimal; "—" for what was not computable. */
const percent = (value: number | null) => (value === null ? '—' : (100 * value).toFixed(1));
/** A difference in percentage points, signed. */
const points = (value: number | null) =>
  value === null ? '—' : `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(100 * value).toFixed(1)}`;
/** p as the report writes it: three decimals, "< 0.001" below. */
export const pText = (p: number) => (p < 0.001 ? '< 0.001' : p.toFixed(3));

function rowCells(row: Row, name: string, statistic: string, holm: string): string[] {
  const counts = row.onlyA === null ? '' : ` (${row.onlyA}/${row.onlyB})`;
  return [
    name,
    statistic,
    row.units === row.n ? String(row.n) : `${row.n} (${row.units})`,
    percent(row.a),
    percent(row.b),
    `${points(row.difference)} [${points(row.lower)}, ${points(row.upper)}]`,
    `${row.test === 'McNemar (exact)' ? 'McNemar' : 'bootstrap'}${counts}`,
    pText(row.p),
    holm,
    row.minimumDetectable === null ? '—' : Math.abs(100 * row.minimumDetectable).toFixed(1),
  ];
}

/** Lines on what was not paired: samples one run lacks, tasks one run lacks, samples one run does not count. */
function pairingNotes(document: CompareDocument): string[] {
  const notes: string[] = [];
  for (const task of document.tasks) {
    for (const [side, unpaired] of [
      ['A', task.onlyInA],
      ['B', task.onlyInB],
    ] as const)
      if (unpaired.count > 0)
        notes.push(
          `${task.task}: ${unpaired.count} samples only in ${side} (${document[side === 'A' ? 'a' : 'b'].label}), not paired: ${unpaired.ids.join(', ')}${unpaired.count > unpaired.ids.length ? ', …' : ''}`,
        );
    if (task.notCounted > 0)
      notes.push(
        `${task.task}: ${task.notCounted} samples one run does not count (beyond its context window)`,
      );
  }
  for (const task of document.uncompared)
    notes.push(`${task.task}: not compared (A holds ${task.a} samples, B ${task.b}; none counted by both)`);
  return notes;
}

/** `medbench compare` as text: one row per task and the overall row, then what was not paired and how to read it. */
export function renderCompareText(document: CompareDocument): string {
  const { a, b } = document;
  const header = [
    'Task',
    'Score',
    'n (units)',
    'A',
    'B',
    `B − A [${Math.round(document.level * 100)}% CI]`,
    'Test (A/B only)',
    'p',
    'p Holm',
    'MDD',
  ];
  const rows = document.tasks.map((task) => rowCells(task, task.task, task.statistic, pText(task.pHolm)));
  if (document.overall)
    rows.push(rowCells(document.overall, 'Overall', `mean of ${document.overall.tasks} tasks`, ''));
  const notes = pairingNotes(document);
  return [
    renderReportTable({
      title: `${document.suite} — ${b.label} (B, run ${b.runId.slice(0, 8)}) vs ${a.label} (A, run ${a.runId.slice(0, 8)}), ${document.variant}`,
      header,
      rows,
    }),
    '',
    `Scores in percent, B − A and MDD in points. Samples paired by id; units: what is resampled together (NIAH: needles). Interval: paired bootstrap, B = ${document.resamples}, seed ${document.seed}. Test: McNemar's exact test for 0/1 scores of single samples (A/B only: the discordant pairs), else the paired bootstrap. p Holm: adjusted across the ${document.tasks.length} tasks. MDD: the smallest difference detected 80% of the time at the 5% level.`,
    ...(notes.length > 0 ? ['', 'Not paired:', ...notes.map((note) => `  ${note}`)] : []),
    '',
  ].join('\n');
}
