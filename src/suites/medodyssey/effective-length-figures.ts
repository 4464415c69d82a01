import type { ScoreRow } from '../../core/run-record.js';
import type { GroupFigure } from '../../core/suite.js';
import type { EffectiveLengthEstimate } from '../../metrics/effective-length.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../../metrics/uncertainty/index.js';
import { levelName } from './constants.js';
import { DEFAULT_EFFECTIVE_LENGTH, effectiveLengthRow } from './effective-lengths.js';

const MEDICAL_F1 = new Set(['kg', 'table']);

/**
 * The viewer's figures of a group's effective length (the report's rules and defaults, B = 1000):
 * under each rule the length in tokens (0: not even the shortest level) and its 95% interval's
 * bounds, then each level's mean prompt tokens under the model's own tokenizer. None for a group
 * of fewer than two levels (a single sample, a Counting setting of one length).
 */
export function effectiveLengthFigures(
  rows: readonly ScoreRow[],
  contextWindow: number | null,
): GroupFigure[] {
  const first = rows[0];
  if (!first) return [];
  const row = effectiveLengthRow({
    dataset: first.task,
    task: first.task,
    language: String(first.params.language ?? ''),
    rows,
    prf: MEDICAL_F1.has(first.task),
    contextWindow,
    settings: DEFAULT_EFFECTIVE_LENGTH,
    intervals: { resamples: DEFAULT_RESAMPLES, seed: DEFAULT_SEED },
  });
  if (!row || row.levels.length < 2) return [];
  const { threshold, fraction } = DEFAULT_EFFECTIVE_LENGTH;
  const lengthFigures = (name: string, estimate: EffectiveLengthEstimate): GroupFigure[] => {
    if (estimate.threshold === null) return [{ name: `${name} (base 0: none)`, value: null, unit: 'count' }];
    return [
      { name: `${name}, tokens (0: below the shortest level)`, value: estimate.length ?? 0, unit: 'count' },
      { name: `${name}, 95% interval lower`, value: estimate.interval?.lower ?? 0, unit: 'count' },
      { name: `${name}, 95% interval upper`, value: estimate.interval?.upper ?? 0, unit: 'count' },
    ];
  };
  return [
    ...lengthFigures(`Effective length, RULER (every level ≥ ${threshold})`, row.fixed),
    ...lengthFigures(`Effective length, NoLiMa (≥ ${fraction} × the shortest level's score)`, row.relative),
    ...row.levels.flatMap((level) =>
      level.tokens
        ? [
            {
              name: `${levelName(level.level)} level: mean prompt tokens (the model's own tokenizer)`,
              value: Math.round(level.tokens.mean),
              unit: 'count' as const,
            },
          ]
        : [],
    ),
  ];
}
