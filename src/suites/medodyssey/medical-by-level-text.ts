import { cellWithInterval } from '../../report/interval-cell.js';
import { MEDICAL_DATASETS } from './aggregate.js';
import { levelName } from './constants.js';
import type { MedOdysseyReport } from './medodyssey-report.js';

/** Where a figure's intervals are kept beside it (present when the report computes intervals). */
const INTERVALS = {
  medicalByLevel: 'medicalByLevelIntervals',
  medicalByLevelSsm: 'medicalByLevelSsmIntervals',
} as const;

export type ByLevelKey = 'medicalByLevel' | 'medicalByLevelSsm';

/** Figure 5 (ESM) or A4 (SSM) as a table: a row per model and medical dataset, a column per level, each score with its interval under it. */
export function medicalByLevelTable(
  report: MedOdysseyReport,
  key: ByLevelKey,
): { header: string[]; rows: string[][] } | undefined {
  const runs = report.runs.filter((run) => Object.keys(run[key]).length > 0);
  if (runs.length === 0) return undefined;
  const levels = [
    ...new Set(
      runs.flatMap((run) => Object.values(run[key]).flatMap((byLevel) => Object.keys(byLevel).map(Number))),
    ),
  ].sort((a, b) => a - b);
  const rows = runs.flatMap((run) =>
    MEDICAL_DATASETS.filter(({ task, language }) => run[key][`${task}-${language}`]).map(
      ({ task, language, name }) => {
        const byLevel = run[key][`${task}-${language}`]!;
        return [
          run.label,
          name,
          ...levels.map((level) =>
            byLevel[level] === undefined
              ? '—'
              : cellWithInterval(
                  byLevel[level]!.toFixed(2),
                  run[INTERVALS[key]]?.[`${task}-${language}`]?.[level],
                ),
          ),
        ];
      },
    ),
  );
  return { header: ['Model', 'Dataset', ...levels.map(levelName)], rows };
}
