import type { Leaderboard, SampleExplanation, Suite } from '../../core/suite.js';
import { datasetOfKey } from './datasets.js';
import {
  buildMedEurekaReport,
  type MedEurekaReport,
  medeurekaTables,
  renderMedEurekaHtml,
  renderMedEurekaText,
} from './medeureka-report.js';
import { medeurekaReportSchema } from './medeureka-report-schema.js';
import { medeurekaScoring } from './medeureka-scoring.js';
import { withMtebVariants } from './mteb-leaderboard.js';

/** Table 3's MRR@10 and Exact HR@10 first (the page opens on the first), then every other n. */
const VARIANT_CUTOFFS = [10, 1, 5, 20, 50, 100, 200, 500];

function medeurekaLeaderboard(report: MedEurekaReport): Leaderboard {
  const datasets = [...new Set(report.runs.flatMap((run) => Object.keys(run.datasets)))];
  const columns = [...datasets.map((key) => ({ key, label: key })), { key: 'Avg.', label: 'Avg.' }];
  const variants = ['mrr', 'hr']
    .flatMap((metric) =>
      VARIANT_CUTOFFS.map((n) => ({
        key: `${metric}@${n}`,
        label: `${metric === 'mrr' ? 'MRR' : 'Exact HR'}@${n}`,
        columns,
      })),
    )
    .sort((left, right) => Number(right.key.endsWith('@10')) - Number(left.key.endsWith('@10')));
  return {
    suite: 'medeureka',
    variants,
    rows: report.runs.map((run) => ({
      runId: run.runId,
      label: run.label,
      imported: false,
      samples: Object.values(run.datasets).reduce((sum, scores) => sum + (scores.queries ?? 0), 0),
      values: Object.fromEntries(
        variants.map((variant) => [
          variant.key,
          {
            ...Object.fromEntries(datasets.map((name) => [name, run.datasets[name]?.[variant.key] ?? null])),
            'Avg.': run.average[variant.key] ?? null,
          },
        ]),
      ),
    })),
  };
}

/** MedEureka: embedding retrieval over the medical datasets, MRR@n and Exact HR@n per query. */
export const medeurekaSuite: Suite<MedEurekaReport> = {
  name: 'medeureka',
  title: 'MedEureka',
  firstRun: 'Run `medbench run medeureka --data <folder> --model bm25` first, or check --home.',
  // A task key names dataset, language and granularity already.
  groupOf: (row) => row.task,
  primaryMetric: 'mrr@10',
  groupTitle: (key) => {
    const dataset = datasetOfKey(key);
    return dataset ? `${dataset.name} (${key})` : key;
  },
  metricName: (metric) => metric.replace(/^mrr@/, 'MRR@').replace(/^hr@/, 'Exact HR@'),
  reportSchema: medeurekaReportSchema,
  report: (runs, options) => buildMedEurekaReport(runs, { intervals: options.intervals }),
  renderText: (report) => renderMedEurekaText(report),
  tables: (report) => medeurekaTables(report),
  renderHtml: renderMedEurekaHtml,
  runCount: (report) =>
    report.runs.length +
    new Set((report.mteb ?? []).filter((row) => row.source === 'imported').map((row) => row.runId)).size,
  leaderboard: (runs) => {
    const report = buildMedEurekaReport(runs);
    return withMtebVariants(medeurekaLeaderboard(report), report.mteb ?? []);
  },
  scoring: medeurekaScoring,
  explain: (result) => explainRanking(result.parsed, result.gold),
};

/**
 * The top of a query's ranking with rank, score and whether each text is a target (exact text,
 * as Exact HR@n counts it). Results stored before the texts were kept show none.
 */
function explainRanking(parsed: unknown, gold: unknown): SampleExplanation | null {
  const ranking = parsed as { scores?: number[]; topTexts?: string[] } | null;
  const targets = new Set((gold as { targets?: string[] } | null)?.targets ?? []);
  if (!ranking?.topTexts) return null;
  return {
    retrieved: ranking.topTexts.map((text, index) => ({
      rank: index + 1,
      text,
      score: ranking.scores?.[index] ?? null,
      relevant: targets.has(text),
    })),
  };
}
