import { z } from 'zod';
import { RETRIEVAL_CUTOFFS } from '../../metrics/retrieval.js';
import { MEDEUREKA_DATASETS, type MedEurekaDataset } from './datasets.js';

/**
 * One split and subset's scores in a TaskResult (mteb's `ScoresDict`): `hf_subset`, `languages`
 * and `main_score` are required (`TaskResult._validate_scores_dict`), every other key is a score
 * (`ndcg_at_10`, `map_at_10`, `recall_at_10`, `mrr_at_10` …) or any JSON value.
 */
export const mtebScoresDictSchema = z.looseObject({
  hf_subset: z.string(),
  languages: z.array(z.string()),
  main_score: z.number(),
});

/**
 * mteb's `TaskResult` as `to_disk` writes it (`mteb/results/task_result.py`, pinned in
 * test/fixtures/mteb/README.md), in its field order. Fields without a default are required even
 * when null; pydantic ignores unknown fields, and so does this schema. Results written before
 * mteb 1.11 (scores keyed by subset, not listed) are not this shape.
 */
export const mtebTaskResultSchema = z.looseObject({
  dataset_revision: z.string(),
  task_name: z.string(),
  mteb_version: z.string().nullable(),
  scores: z.record(z.string(), z.array(mtebScoresDictSchema)),
  evaluation_time: z.number().nullable(),
  kg_co2_emissions: z.number().nullable().optional(),
  /** `to_disk` writes a POSIX timestamp; a dumped model, an ISO date. */
  date: z.union([z.number(), z.string()]).nullable().optional(),
  evaluation_phases: z.array(z.unknown()).nullable().optional(),
});
export type MtebTaskResult = z.infer<typeof mtebTaskResultSchema>;

/** The MTEB metric families medbench reads and writes, under medbench's score keys (`ndcg@10`). */
export const MTEB_FAMILIES = ['ndcg', 'map', 'recall', 'mrr'] as const;

/** The per-query score keys a MedEureka run's MTEB scores are the means of. */
export const MTEB_SCORE_KEYS: readonly string[] = MTEB_FAMILIES.flatMap((family) =>
  RETRIEVAL_CUTOFFS.map((n) => `${family}@${n}`),
);

const MTEB_KEY = /^(ndcg|map|recall|mrr|precision)_at_(\d+)$/;

/** `ndcg_at_10` → `ndcg@10` for every score family MTEB writes medbench knows; the rest is left out. */
export function fromMtebScores(dict: Record<string, unknown>): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const [key, value] of Object.entries(dict)) {
    const match = MTEB_KEY.exec(key);
    if (match && typeof value === 'number') scores[`${match[1]}@${match[2]}`] = value;
  }
  return scores;
}

/** `ndcg@10` → `ndcg_at_10`. */
export function toMtebScores(scores: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(scores).map(([key, value]) => [key.replace('@', '_at_'), value]));
}

/** The name a MedEureka dataset has as an MTEB task: `Table I` → `MedEurekaTableI`. */
export function mtebTaskName(dataset: string): string {
  return `MedEureka${dataset.replace(/[^A-Za-z0-9]/g, '')}`;
}

/** The MedEureka dataset an MTEB task name stands for (medbench's own export), if any. */
export function datasetOfMtebTask(task: string): MedEurekaDataset | undefined {
  return MEDEUREKA_DATASETS.find((dataset) => mtebTaskName(dataset.name) === task);
}

/** A dataset's languages as MTEB writes them (ISO 639-3 and script). */
export function mtebLanguages(dataset: MedEurekaDataset): string[] {
  return { en: ['eng-Latn'], zh: ['cmn-Hans'], 'en→zh': ['eng-Latn', 'cmn-Hans'] }[dataset.language];
}

/** The split medbench's MedEureka scores are of (every query of the release is evaluated). */
export const MTEB_SPLIT = 'test';
export const MTEB_SUBSET = 'default';

/**
 * One MedEureka dataset's scores of a run as an MTEB TaskResult: `scores` are the dataset's means
 * (fractions) under medbench's keys; the main score is nDCG@10, as for MTEB's retrieval tasks.
 */
export function mtebTaskResult(options: {
  dataset: MedEurekaDataset;
  datasetRevision: string;
  scores: Record<string, number>;
  createdAt: string;
}): MtebTaskResult {
  return {
    dataset_revision: options.datasetRevision,
    task_name: mtebTaskName(options.dataset.name),
    mteb_version: null,
    scores: {
      [MTEB_SPLIT]: [
        {
          hf_subset: MTEB_SUBSET,
          languages: mtebLanguages(options.dataset),
          main_score: options.scores['ndcg@10']!,
          ...toMtebScores(options.scores),
        },
      ],
    },
    evaluation_time: null,
    kg_co2_emissions: null,
    date: Date.parse(options.createdAt) / 1000,
    evaluation_phases: null,
  };
}
