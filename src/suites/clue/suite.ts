import type { Leaderboard, Suite } from '../../core/suite.js';
import { withEpochs } from '../../metrics/epoch-results.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../../metrics/uncertainty/index.js';
import { clueUnitOf } from './clue-intervals.js';
import {
  buildClueReport,
  type ClueReport,
  clueTables,
  renderClueHtml,
  renderClueText,
} from './clue-report.js';
import { clueReportSchema } from './clue-report-schema.js';
import { clueScoring } from './clue-scoring.js';
import { CLUE_PRIMARY_METRICS } from './clue-tasks.js';
import { clueTemplates } from './clue-templates.js';
import { MIMIC_DERIVED_TASKS } from './load-tasks.js';
import { clueReview } from './review.js';

const CLUE_TITLES: Readonly<Record<string, string>> = {
  mednli: 'MedNLI',
  meqsum: 'MeQSum',
  'problem-summary': 'Problem Summary',
  longhealth: 'LongHealth',
  medisumqa: 'MeDiSumQA',
  medisumcode: 'MeDiSumCode',
};

const CLUE_METRIC_NAMES: Readonly<Record<string, string>> = {
  accuracy: 'Accuracy',
  rougeL: 'ROUGE-L',
  rouge1: 'ROUGE-1',
  rouge2: 'ROUGE-2',
  bertscore: 'BERTScore',
  umls: 'UMLS F1',
  emF1: 'exact-match F1',
  apF1: 'approximate-match F1',
  validCodes: 'valid ICD-10 codes',
};

/** A run's leaderboard intervals: the level scores' and every metric's (×100, as the values). */
function leaderboardIntervals(run: ClueReport['runs'][number], metricKeys: readonly string[]) {
  const bounds = (interval: { lower: number; upper: number } | null | undefined) =>
    interval ? { lower: interval.lower, upper: interval.upper } : null;
  return {
    levels: { level1: bounds(run.levelIntervals?.level1), level2: bounds(run.levelIntervals?.level2) },
    metrics: Object.fromEntries(
      metricKeys.map((key) => {
        const [dataset, metric] = key.split(' ') as [string, string];
        return [key, bounds(run.intervals?.[dataset]?.[metric])];
      }),
    ),
  };
}

function clueLeaderboard(report: ClueReport): Leaderboard {
  const metricKeys = [
    ...new Set(
      report.runs.flatMap((run) =>
        Object.entries(run.scores).flatMap(([dataset, metrics]) =>
          Object.keys(metrics).map((metric) => `${dataset} ${metric}`),
        ),
      ),
    ),
  ];
  const columns = metricKeys.map((key) => ({ key, label: key }));
  return {
    suite: 'clue',
    variants: [
      {
        key: 'levels',
        label: 'Level 1 / Level 2',
        columns: [
          { key: 'level1', label: 'Level 1' },
          { key: 'level2', label: 'Level 2' },
        ],
      },
      { key: 'metrics', label: 'Every metric', columns },
    ],
    rows: report.runs.map((run) => ({
      runId: run.runId,
      label: run.label,
      imported: false,
      samples: Object.values(run.items).reduce((sum, count) => sum + count, 0),
      values: {
        levels: { level1: run.level1, level2: run.level2 },
        metrics: Object.fromEntries(
          metricKeys.map((key) => {
            const [dataset, metric] = key.split(' ') as [string, string];
            return [key, run.scores[dataset]?.[metric] ?? null];
          }),
        ),
      },
      ...(run.levelIntervals ? { intervals: leaderboardIntervals(run, metricKeys) } : {}),
    })),
  };
}

/** CLUE: six clinical tasks, Level 1 and Level 2 scores. */
export const clueSuite: Suite<ClueReport> = withEpochs({
  name: 'clue',
  title: 'CLUE',
  firstRun: 'Run `medbench run clue --data <folder> --model baseline` first, or check --home.',
  groupOf: (row) => row.task,
  groupTitle: (task) => CLUE_TITLES[task] ?? task,
  promptTemplates: clueTemplates,
  metricName: (metric) => CLUE_METRIC_NAMES[metric] ?? metric,
  primaryMetric: 'accuracy',
  primaryMetrics: CLUE_PRIMARY_METRICS,
  restrictedTasks: MIMIC_DERIVED_TASKS,
  reportSchema: clueReportSchema,
  report: (runs, options) =>
    buildClueReport(runs, { ...(options.base ? { base: options.base } : {}), intervals: options.intervals }),
  unitOf: clueUnitOf,
  renderText: (report) => renderClueText(report),
  tables: (report) => clueTables(report),
  renderHtml: renderClueHtml,
  runCount: (report) => report.runs.length,
  // With the report's default intervals: the viewer's leaderboard shows each score's.
  leaderboard: (runs) =>
    clueLeaderboard(
      buildClueReport(runs, { intervals: { resamples: DEFAULT_RESAMPLES, seed: DEFAULT_SEED } }),
    ),
  scoring: clueScoring,
  review: clueReview,
});
