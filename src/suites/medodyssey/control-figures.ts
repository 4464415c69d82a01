import type { RunRecord, ScoreRow } from '../../core/run-record.js';
import type { GroupFigure, RelatedRuns } from '../../core/suite.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../../metrics/uncertainty/index.js';
import { closedBookTask, contextRunOf, isClosedBookRun } from './closed-book-report.js';
import { medodysseyScoring } from './medodyssey-scoring.js';
import { needlesOf, TERCILES, tercileScores } from './overlap-terciles.js';
import type { ScoreWithInterval } from './scored-share.js';

// The run page's intervals, as `report`'s defaults (the figures are few and small).
const SETTINGS = { resamples: DEFAULT_RESAMPLES, seed: DEFAULT_SEED };

function percent(name: string, score: ScoreWithInterval | null): GroupFigure {
  return {
    name,
    value: score?.score ?? null,
    unit: '%',
    ...(score?.interval ? { interval: { lower: score.interval.lower, upper: score.interval.upper } } : {}),
  };
}

/** A NIAH group of a run with context: ESM accuracy per overlap tercile of its needles (three needles at least). */
function tercileFigures(rows: readonly ScoreRow[], run: RunRecord): GroupFigure[] {
  const first = rows[0];
  if (first?.task !== 'niah' || isClosedBookRun(run)) return [];
  const language = String(first.params.language);
  const needles = needlesOf([rows]).filter((needle) => needle.language === language);
  if (needles.length < 3) return [];
  const window = (run.model.contextWindow as number | null | undefined) ?? null;
  const scores = tercileScores(rows, language, needles, window, SETTINGS);
  if (!scores) return [];
  return TERCILES.map((tercile) =>
    percent(
      `ESM: accuracy, ${tercile} needle–question overlap (${needles.filter((needle) => needle.tercile === tercile).length} needles)`,
      scores[tercile],
    ),
  );
}

/** A group of a closed-book run: what it answers without context, and the run with context's score with and without those items. */
function closedBookFigures(
  rows: readonly ScoreRow[],
  run: RunRecord,
  related: RelatedRuns | undefined,
): GroupFigure[] {
  if (!isClosedBookRun(run) || rows.length === 0) return [];
  const context =
    related &&
    contextRunOf(
      run,
      related.runs.map((other) => ({ run: other })),
    );
  for (const task of medodysseyScoring.tasks('esm', rows)) {
    const entry = closedBookTask(
      task,
      { run, rows },
      context && { run: context.run, rows: related!.rowsOf(context.run) },
      SETTINGS,
    );
    if (!entry) continue;
    return [
      { name: 'Closed-book: items answered right without context', value: entry.known.length, unit: 'count' },
      percent(`Closed-book: ${task.statistic}`, entry.closedBook),
      percent(`With context (${context?.run.label ?? 'no run'}): ${task.statistic}`, entry.withContext),
      percent(
        `With context, the items known without it left out: ${task.statistic}`,
        entry.withContextUnknownOnly,
      ),
    ];
  }
  return [];
}

/** The run page's long-context controls of a group: accuracy by needle overlap tercile, the closed-book comparison. */
export function controlFigures(
  rows: readonly ScoreRow[],
  run: RunRecord,
  related?: RelatedRuns,
): GroupFigure[] {
  return [...tercileFigures(rows, run), ...closedBookFigures(rows, run, related)];
}
