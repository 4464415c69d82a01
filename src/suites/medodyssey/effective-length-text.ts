import type { ReportTable } from '../../core/suite.js';
import type { EffectiveLengthEstimate } from '../../metrics/effective-length.js';
import { levelName } from './constants.js';
import type { EffectiveLevel } from './effective-lengths.js';
import type { MedOdysseyReport } from './medodyssey-report.js';

/** "<4k" (not even the shortest level), "≥200k" (every level), else the level: "32k". */
function lengthName(passing: number, levels: readonly EffectiveLevel[]): string {
  if (passing === 0) return `<${levelName(levels[0]!.level)}`;
  const name = levelName(levels[passing - 1]!.level);
  return passing === levels.length ? `≥${name}` : name;
}

/** `32k [16k, 64k]`: an effective length and its interval; `—` when the rule has no threshold. */
export function effectiveLengthText(
  estimate: EffectiveLengthEstimate,
  levels: readonly EffectiveLevel[],
): string {
  if (estimate.threshold === null) return '— (base 0)';
  const value = lengthName(estimate.passing, levels);
  const interval = estimate.interval;
  if (interval?.method !== 'bootstrap') return value;
  return `${value} [${lengthName(interval.lowerPassing, levels)}, ${lengthName(interval.upperPassing, levels)}]`;
}

/** A level's cell: its score ×100 and, in parentheses, its prompts' mean tokens under the model's own tokenizer; `·` not run. */
function levelText(level: EffectiveLevel | undefined): string {
  if (!level) return '·';
  const score = level.score === null ? '—' : level.score.toFixed(1);
  return level.tokens ? `${score} (${Math.round(level.tokens.mean).toLocaleString('en-US')})` : score;
}

/**
 * Each run's effective length per dataset under RULER's and NoLiMa's rules, with intervals, and
 * every level's score and real token length beside its MIC level.
 */
export function effectiveLengthReportTable(report: MedOdysseyReport): ReportTable | undefined {
  const rows = report.runs.flatMap((run) => run.effectiveLengths.map((row) => ({ run, row })));
  if (rows.length === 0) return undefined;
  const levels = [...new Set(rows.flatMap(({ row }) => row.levels.map((level) => level.level)))].sort(
    (a, b) => a - b,
  );
  const bootstrap = rows
    .flatMap(({ row }) => [row.fixed.interval, row.relative.interval])
    .find((interval) => interval?.method === 'bootstrap');
  const { threshold, fraction } = report.effectiveLength;
  const intervals = bootstrap
    ? `; [ ]: 95% percentile bootstrap interval over NIAH needles or samples (B = ${bootstrap.resamples}, seed ${bootstrap.seed})`
    : '';
  return {
    name: 'effective-length',
    title:
      `Effective length: the longest level up to which every level scores ≥ ${threshold} (RULER's rule) or keeps ≥ ${Math.round(fraction * 1000) / 10}% of the shortest level's score (NoLiMa's)${intervals}; ` +
      "<4k: not even the shortest level, ≥: every level. Per level (· not run): main ESM score ×100 (the prompts' mean tokens under the model's own tokenizer).",
    header: ['Model', 'Dataset', `RULER ≥${threshold}`, `NoLiMa ≥${fraction}×base`, ...levels.map(levelName)],
    rows: rows.map(({ run, row }) => [
      run.label,
      row.dataset,
      effectiveLengthText(row.fixed, row.levels),
      effectiveLengthText(row.relative, row.levels),
      ...levels.map((level) => levelText(row.levels.find((entry) => entry.level === level))),
    ]),
  };
}
