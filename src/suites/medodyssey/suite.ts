import { answerWithoutThinking } from '../../core/answer-text.js';
import type { Leaderboard, Suite } from '../../core/suite.js';
import { withEpochs } from '../../metrics/epoch-results.js';
import { displayLabels } from '../../report/display-labels.js';
import { countedInTables, TEN_DATASETS } from './aggregate.js';
import { closedBookSample } from './closed-book.js';
import { controlFigures } from './control-figures.js';
import {
  medodysseyFigures,
  medodysseyGroupOf,
  medodysseyGroupTitle,
  medodysseyMetricName,
} from './group-figures.js';
import { medodysseyTasks } from './index.js';
import { intervalFigures } from './interval-figures.js';
import { renderMedOdysseyHtml } from './medodyssey-html.js';
import { MEDODYSSEY_METRICS } from './medodyssey-labels.js';
import {
  buildMedOdysseyReport,
  type MedOdysseyReport,
  medodysseyTables,
  tenDatasetScores,
} from './medodyssey-report.js';
import { medodysseyReportSchema } from './medodyssey-report-schema.js';
import { medodysseyScoring } from './medodyssey-scoring.js';
import { medodysseyReportTables } from './medodyssey-tables.js';
import { medodysseyTemplates } from './medodyssey-templates.js';
import { renderMedOdysseyText } from './medodyssey-text.js';
import { medodysseyUnitOf } from './tally-intervals.js';

/**
 * The ten-dataset leaderboard, computed with the suite's own counting rules (the same functions
 * Tables A2/A3/3/2/A4 use) but only the cells it shows: quicker than the full report on large stores.
 */
function medodysseyLeaderboard(runs: Parameters<Suite['leaderboard']>[0]): Leaderboard {
  const columns = TEN_DATASETS.map((key) => ({ key, label: key }));
  const labels = displayLabels(runs);
  return {
    suite: 'medodyssey',
    variants: [
      { key: 'esm', label: 'ESM', columns },
      { key: 'ssm', label: 'SSM', columns },
    ],
    rows: runs.map(({ run, results }) => {
      const tables = medodysseyTables(
        results,
        (run.model.contextWindow as number | null | undefined) ?? null,
      );
      return {
        runId: run.id,
        label: labels.get(run.id)!,
        imported: run.source === 'imported',
        samples: results.length,
        values: { esm: tenDatasetScores(tables, 'esm'), ssm: tenDatasetScores(tables, 'ssm') },
      };
    }),
  };
}

/** MedOdyssey (Fan et al.): long-context NIAH, Counting and the medical tasks. */
export const medodysseySuite: Suite<MedOdysseyReport> = withEpochs({
  name: 'medodyssey',
  title: 'MedOdyssey',
  tasks: medodysseyTasks,
  textMetrics: MEDODYSSEY_METRICS,
  firstRun:
    'Run `medbench demo`, `medbench run` or `medbench import medodyssey-outputs` first, or check --home.',
  // A task in one language; Counting's other context settings (Figure 6) apart from Table 3's.
  groupOf: medodysseyGroupOf,
  // NIAH's context length and needle depth (the run page's grid links to them).
  sampleFilters: [
    { param: 'level', label: 'level' },
    { param: 'depth', label: 'depth' },
  ],
  // NIAH: needle depth × context length, as Tables A2/A3 lay it out; Counting: the line along length.
  unitOf: medodysseyUnitOf,
  grid: {
    rows: { param: 'depth', name: 'depth', unit: '%' },
    columns: { param: 'level', name: 'length', chartAxis: 'context length (tokens)' },
  },
  // Plus Figures 5/A4, own-rule cells and the NIAH error analysis with their intervals, and the
  // long-context controls: NIAH by needle overlap tercile, a closed-book run beside its run with context.
  figures: (rows, run, related) => [
    ...medodysseyFigures(rows, run),
    ...intervalFigures(rows, run),
    ...controlFigures(rows, run, related),
  ],
  // The task's own scorer, run again on the stored output: its normalised forms and the answer that matched.
  explain: (result, run) => {
    const task = medodysseyTasks[result.task];
    const gold = task?.gold.safeParse(result.gold);
    if (!task || !gold?.success || result.rawOutput === null) return null;
    return (
      task.score({
        sample: { gold: gold.data, params: result.params },
        rawOutput: answerWithoutThinking(result.rawOutput),
        mode: run.scoringMode,
      }).explanation ?? null
    );
  },
  // Every task but Counting (whose question is about the context itself), without its context.
  closedBook: closedBookSample,
  groupTitle: medodysseyGroupTitle,
  promptTemplates: medodysseyTemplates,
  metricName: medodysseyMetricName,
  primaryMetric: 'esm',
  counts: (row, run) => countedInTables(row, (run.model.contextWindow as number | null | undefined) ?? null),
  reportSchema: medodysseyReportSchema,
  report: (runs, options) =>
    buildMedOdysseyReport(runs, { intervals: options.intervals, effectiveLength: options.effectiveLength }),
  renderText: (report, options) => renderMedOdysseyText(report, options.metrics),
  tables: (report, options) => medodysseyReportTables(report, options.metrics),
  renderHtml: renderMedOdysseyHtml,
  runCount: (report) => report.runs.length,
  leaderboard: medodysseyLeaderboard,
  scoring: medodysseyScoring,
});
