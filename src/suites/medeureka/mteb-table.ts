import type { RunRecord, RunWithResults, StoredResult } from '../../core/run-record.js';
import type { ReportTable } from '../../core/suite.js';
import { MEDEUREKA_DATASETS } from './datasets.js';
import {
  datasetOfMtebTask,
  MTEB_SCORE_KEYS,
  MTEB_SPLIT,
  MTEB_SUBSET,
  mtebLanguages,
  mtebTaskName,
} from './mteb-task-result.js';

/** The provider of a run `medbench import mteb` made from MTEB result files. */
export const MTEB_IMPORT_PROVIDER = 'mteb-results';

/** A run imported from MTEB result files: aggregate scores per task, no queries. */
export function isMtebImport(run: RunRecord): boolean {
  return run.source === 'imported' && run.model.provider === MTEB_IMPORT_PROVIDER;
}

/** One model's MTEB scores of one task, split and subset (percent): a medbench run's or an imported file's. */
export interface MtebRow {
  runId: string;
  label: string;
  /** `medbench`: computed from the run's queries here; `imported`: read from an MTEB result file. */
  source: 'medbench' | 'imported';
  /** The MTEB task name (`MedEurekaTableI` for a MedEureka dataset). */
  task: string;
  /** The MedEureka dataset the task is, or null (another MTEB task). */
  dataset: string | null;
  split: string;
  subset: string;
  languages: string[];
  /** `ndcg@n`, `map@n`, `recall@n`, `mrr@n` (and `precision@n` imported) → percent. */
  scores: Record<string, number>;
}

/**
 * A dataset's MTEB scores (fractions): each key's mean over the dataset's queries, every query
 * pooled as for MRR@n; null when a query has none (a run stored before medbench computed them).
 */
export function mtebDatasetMeans(
  rows: ReadonlyArray<Pick<StoredResult, 'scores'>>,
): Record<string, number> | null {
  if (rows.length === 0 || rows.some((row) => row.scores['ndcg@10'] === undefined)) return null;
  const means: Record<string, number> = {};
  for (const key of MTEB_SCORE_KEYS)
    means[key] = rows.reduce((sum, row) => sum + (row.scores[key] ?? 0), 0) / rows.length;
  return means;
}

const percent = (scores: Record<string, number>) =>
  Object.fromEntries(Object.entries(scores).map(([key, value]) => [key, value * 100]));

function medbenchRows({ run, results }: RunWithResults): MtebRow[] {
  return MEDEUREKA_DATASETS.flatMap((dataset) => {
    const means = mtebDatasetMeans(results.filter((result) => result.params.dataset === dataset.name));
    if (!means) return [];
    return [
      {
        runId: run.id,
        label: run.label,
        source: 'medbench' as const,
        task: mtebTaskName(dataset.name),
        dataset: dataset.name,
        split: MTEB_SPLIT,
        subset: MTEB_SUBSET,
        languages: mtebLanguages(dataset),
        scores: percent(means),
      },
    ];
  });
}

function importedRows({ run, results }: RunWithResults): MtebRow[] {
  return results.map((result) => ({
    runId: run.id,
    label: run.label,
    source: 'imported' as const,
    task: result.task,
    dataset: datasetOfMtebTask(result.task)?.name ?? null,
    split: String(result.params.split),
    subset: String(result.params.subset),
    languages: String(result.params.languages ?? '')
      .split(',')
      .filter(Boolean),
    scores: percent(result.scores),
  }));
}

/** A task's place: MedEureka's datasets in Table 1 order, then other tasks by name. */
function taskOrder(left: MtebRow, right: MtebRow): number {
  const place = (row: MtebRow) =>
    row.dataset === null
      ? MEDEUREKA_DATASETS.length
      : MEDEUREKA_DATASETS.findIndex((d) => d.name === row.dataset);
  return place(left) - place(right) || left.task.localeCompare(right.task);
}

/**
 * Every run's MTEB rows, by model label, then task (MedEureka's datasets first), split and
 * subset: medbench runs per dataset, imported files per task, split and subset; a run exported
 * and imported again gives the same rows in the same order.
 */
export function mtebRows(runs: readonly RunWithResults[]): MtebRow[] {
  return runs
    .flatMap((entry) => (isMtebImport(entry.run) ? importedRows(entry) : medbenchRows(entry)))
    .sort(
      (left, right) =>
        left.label.localeCompare(right.label) ||
        taskOrder(left, right) ||
        left.split.localeCompare(right.split) ||
        left.subset.localeCompare(right.subset) ||
        left.runId.localeCompare(right.runId),
    );
}

/** The columns of the MTEB table: MTEB's main score first, then what both MedEureka and MTEB cut at. */
export const MTEB_TABLE_COLUMNS = [
  ['ndcg@10', 'nDCG@10'],
  ['map@10', 'MAP@10'],
  ['recall@1', 'Recall@1'],
  ['recall@5', 'Recall@5'],
  ['recall@10', 'Recall@10'],
  ['recall@20', 'Recall@20'],
  ['recall@100', 'Recall@100'],
  ['mrr@10', 'MRR@10'],
] as const;

/** The MTEB metrics of medbench's runs beside imported MTEB results, one row per model and task; none without rows. */
export function mtebTable(rows: readonly MtebRow[]): ReportTable | null {
  if (rows.length === 0) return null;
  return {
    name: 'mteb',
    title:
      'MedEureka — MTEB metrics (%): pytrec_eval definitions over medbench rankings; imported rows read from MTEB result files',
    header: ['Model', 'Source', 'Task', 'Split', ...MTEB_TABLE_COLUMNS.map(([, label]) => label)],
    rows: rows.map((row) => [
      row.label,
      row.source === 'imported' ? 'imported (MTEB file)' : 'medbench run',
      row.task,
      row.split,
      ...MTEB_TABLE_COLUMNS.map(([key]) => row.scores[key]?.toFixed(2) ?? '—'),
    ]),
  };
}
