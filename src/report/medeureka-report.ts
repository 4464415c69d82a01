import { RETRIEVAL_CUTOFFS } from '../metrics/retrieval.js';
import type { RunRecord, StoredResult } from '../store/store.js';
import { MEDEUREKA_DATASETS } from '../suites/medeureka/datasets.js';
import { renderTextTable } from './text-table.js';

export interface MedEurekaRunReport {
  runId: string;
  label: string;
  /** dataset → { "mrr@n" | "hr@n" → percent, queries }: every query of a dataset pooled (Term I/II merge their sub-corpora this way). */
  datasets: Record<string, Record<string, number>>;
  /** Plain means over the datasets run. */
  average: Record<string, number>;
}

export interface MedEurekaReport {
  suite: 'medeureka';
  generatedAt: string;
  runs: MedEurekaRunReport[];
}

export function buildMedEurekaReport(
  runs: ReadonlyArray<{ run: RunRecord; results: readonly StoredResult[] }>,
): MedEurekaReport {
  return {
    suite: 'medeureka',
    generatedAt: new Date().toISOString(),
    runs: runs.map(({ run, results }) => {
      const byDataset = new Map<string, StoredResult[]>();
      for (const result of results) {
        const name = String(result.params.dataset);
        byDataset.set(name, [...(byDataset.get(name) ?? []), result]);
      }
      const datasets: MedEurekaRunReport['datasets'] = {};
      for (const [name, rows] of byDataset) {
        const scores: Record<string, number> = { queries: rows.length };
        for (const n of RETRIEVAL_CUTOFFS) {
          for (const metric of ['hr', 'mrr']) {
            scores[`${metric}@${n}`] =
              (100 * rows.reduce((sum, row) => sum + (row.scores[`${metric}@${n}`] ?? 0), 0)) / rows.length;
          }
        }
        datasets[name] = scores;
      }
      const names = Object.keys(datasets);
      const average: Record<string, number> = {};
      for (const n of RETRIEVAL_CUTOFFS) {
        for (const metric of ['hr', 'mrr']) {
          average[`${metric}@${n}`] =
            names.reduce((sum, name) => sum + datasets[name]![`${metric}@${n}`]!, 0) /
            Math.max(1, names.length);
        }
      }
      return { runId: run.id, label: run.label, datasets, average };
    }),
  };
}

/** Table 3: MRR@10 and Exact HR@10 per model and dataset (percent, two decimals), with the average. */
export function renderMedEurekaText(report: MedEurekaReport): string {
  const present = MEDEUREKA_DATASETS.map((dataset) => dataset.name).filter((name) =>
    report.runs.some((run) => run.datasets[name]),
  );
  return (['mrr@10', 'hr@10'] as const)
    .map((metric) => {
      const header = ['Model', ...present, 'Avg.'];
      const rows = report.runs.map((run) => [
        run.label,
        ...present.map((name) => run.datasets[name]?.[metric]?.toFixed(2) ?? '—'),
        run.average[metric]!.toFixed(2),
      ]);
      return `MedEureka — ${metric === 'mrr@10' ? 'MRR@10' : 'Exact HR@10'} (%)\n${renderTextTable(header, rows)}`;
    })
    .join('\n\n');
}
