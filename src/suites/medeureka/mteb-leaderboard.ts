import type { Leaderboard } from '../../core/suite.js';
import type { MtebRow } from './mteb-table.js';

/** The MTEB variants the viewer's leaderboard adds, after MedEureka's own. */
const MTEB_VARIANTS = [
  ['ndcg@10', 'MTEB nDCG@10'],
  ['map@10', 'MTEB MAP@10'],
  ['recall@10', 'MTEB Recall@10'],
  ['recall@100', 'MTEB Recall@100'],
] as const;

/**
 * MedEureka's leaderboard with MTEB's metrics: one column per MTEB task (MedEureka's datasets
 * under their MTEB names, and any other task imported), a medbench run's values beside imported
 * results, which come as rows of their own marked imported.
 */
export function withMtebVariants(board: Leaderboard, rows: readonly MtebRow[]): Leaderboard {
  if (rows.length === 0) return board;
  const tasks = [...new Set(rows.map((row) => row.task))];
  const columns = tasks.map((task) => ({ key: task, label: task }));
  const valuesOf = (runId: string) =>
    Object.fromEntries(
      MTEB_VARIANTS.map(([key]) => [
        key,
        Object.fromEntries(
          tasks.map((task) => {
            const row = rows.find((candidate) => candidate.runId === runId && candidate.task === task);
            return [task, row?.scores[key] ?? null];
          }),
        ),
      ]),
    );
  const noValues = Object.fromEntries(
    board.variants.map((variant) => [
      variant.key,
      Object.fromEntries(variant.columns.map((column) => [column.key, null])),
    ]),
  );
  const imported = [...new Set(rows.filter((row) => row.source === 'imported').map((row) => row.runId))];
  return {
    ...board,
    variants: [...board.variants, ...MTEB_VARIANTS.map(([key, label]) => ({ key, label, columns }))],
    rows: [
      ...board.rows.map((row) => ({ ...row, values: { ...row.values, ...valuesOf(row.runId) } })),
      ...imported.map((runId) => ({
        runId,
        label: rows.find((row) => row.runId === runId)!.label,
        imported: true,
        samples: 0,
        // MedEureka's own variants need queries: none for an imported file.
        values: { ...noValues, ...valuesOf(runId) },
      })),
    ],
  };
}
