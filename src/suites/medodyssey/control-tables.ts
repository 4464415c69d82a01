import type { ReportTable } from '../../core/suite.js';
import { cellWithInterval } from '../../report/interval-cell.js';
import type { MedOdysseyReport } from './medodyssey-report.js';
import { TERCILES } from './overlap-terciles.js';
import type { ScoreWithInterval } from './scored-share.js';

/** A score ×100 (and `suffix`) with its 95% interval under it; none for an interval of fewer than two units. */
const cell = (score: ScoreWithInterval | null, suffix = '') =>
  score && score.score !== null
    ? cellWithInterval(
        `${score.score.toFixed(1)}${suffix}`,
        score.interval?.method === 'none' ? undefined : score.interval,
      )
    : '—';
const languageName = (language: string) => (language === 'en' ? 'En' : 'Zh');

/** The closed-book control: each closed-book run's datasets, without context and with it (all items, and unknown ones only). */
function closedBookTable(report: MedOdysseyReport): ReportTable | undefined {
  const comparisons = report.closedBook ?? [];
  if (comparisons.length === 0) return undefined;
  return {
    name: 'closed-book',
    title:
      'Closed-book control (ESM; known = answered right without context, ids in report --json closedBook[].tasks[].known): score without context, with context, and with context on the other items only',
    header: [
      'Model',
      'Dataset',
      'Metric',
      'Closed-book',
      'Known',
      'With context',
      'With context, known left out',
    ],
    rows: comparisons.flatMap((comparison) =>
      comparison.tasks.map((task) => [
        comparison.label,
        task.key,
        task.statistic,
        cell(task.closedBook),
        `${task.known.length}/${task.closedBook.samples}`,
        comparison.contextRunId ? cell(task.withContext) : 'no run with context',
        comparison.contextRunId ? cell(task.withContextUnknownOnly) : '—',
      ]),
    ),
  };
}

/** Each needle's overlap with its question and its tercile. */
function needleTable(report: MedOdysseyReport): ReportTable | undefined {
  const overlap = report.needleOverlap;
  if (!overlap) return undefined;
  return {
    name: 'needle-overlap',
    title:
      "Needle–question lexical overlap (NoLiMa's ROUGE-1 precision of the question's content words in the needle; docs/medodyssey-release.md)",
    header: ['Language', 'Needle', 'Type', 'Overlap', 'Tercile'],
    rows: overlap.needles.map((needle) => [
      languageName(needle.language),
      String(needle.needleId),
      needle.needleType ?? '—',
      needle.overlap.toFixed(3),
      needle.tercile,
    ]),
  };
}

/** NIAH accuracy by overlap tercile, per run and language. */
function tercileTable(report: MedOdysseyReport): ReportTable | undefined {
  const overlap = report.needleOverlap;
  if (!overlap || overlap.runs.length === 0) return undefined;
  const cuts = Object.entries(overlap.cuts)
    .map(([language, pair]) => `${languageName(language)} ${pair.map((cut) => cut.toFixed(3)).join(' and ')}`)
    .join('; ');
  return {
    name: 'niah-by-overlap',
    title: `NIAH ESM accuracy by needle–question overlap tercile (cut points ${cuts}; a needle at a cut point in the lower tercile)`,
    header: ['Model', 'Language', ...TERCILES.map((tercile) => `${tercile} overlap`)],
    rows: overlap.runs.flatMap((run) =>
      Object.entries(run.byLanguage).map(([language, byTercile]) => [
        run.label,
        languageName(language),
        ...TERCILES.map((tercile) => cell(byTercile[tercile], ` (n=${byTercile[tercile].samples})`)),
      ]),
    ),
  };
}

/** The long-context control tables: closed-book runs, needle overlap, NIAH accuracy by overlap tercile. */
export function controlTables(report: MedOdysseyReport): ReportTable[] {
  return [closedBookTable(report), needleTable(report), tercileTable(report)].filter(
    (table): table is ReportTable => table !== undefined,
  );
}
