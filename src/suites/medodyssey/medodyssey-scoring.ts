import { meanTask, type ScoredRow, type ScoredTask, type SuiteScoring } from '../../core/scored-task.js';
import { isMainCountingSetting, MEDICAL_DATASETS } from './aggregate.js';
import { MEDODYSSEY_METRICS } from './medodyssey-labels.js';
import { medodysseyUnitOf } from './tally-intervals.js';

const sampleUnit = (row: ScoredRow) => row.sampleId;

/** Micro F1 over summed true positives, false positives and false negatives (0/0 reads 0, as Table 2). */
function microF1(totals: ArrayLike<number>): number {
  const [tp, fp, fn] = [totals[0]!, totals[1]!, totals[2]!];
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
}

/**
 * Figure 2's ten datasets under one metric, as the report counts them: NIAH resampled by needle
 * (each needle sits at every length and depth), Counting and the medical tasks by sample; KG and
 * Table under ESM are micro F1 over the dataset, everything else accuracy.
 */
function medodysseyTasks(metric: string): ScoredTask[] {
  const name = metric.toUpperCase();
  const inLanguage = (task: string, language: string) => (row: ScoredRow) =>
    row.task === task && row.params.language === language;
  const accuracy = (key: string, includes: ScoredTask['includes'], unit = sampleUnit) =>
    meanTask({ key, statistic: `${name} accuracy`, includes, unit, metric, binary: true });
  const tasks: ScoredTask[] = [];
  for (const language of ['en', 'zh'])
    tasks.push(
      accuracy(
        `${language === 'en' ? 'En' : 'Zh'}.NIAH`,
        inLanguage('niah', language),
        (row) => medodysseyUnitOf(row) ?? row.sampleId,
      ),
    );
  for (const language of ['en', 'zh']) {
    const counting = inLanguage('counting', language);
    tasks.push(
      accuracy(
        `${language === 'en' ? 'En' : 'Zh'}.Counting`,
        (row) => counting(row) && isMainCountingSetting(row.params),
      ),
    );
  }
  for (const dataset of MEDICAL_DATASETS) {
    const includes = inLanguage(dataset.task, dataset.language);
    if (metric === 'esm' && (dataset.task === 'kg' || dataset.task === 'table'))
      tasks.push({
        key: dataset.name,
        statistic: `${name} micro F1`,
        includes,
        unit: sampleUnit,
        sums: (row) => [row.scores.tp ?? 0, row.scores.fp ?? 0, row.scores.fn ?? 0],
        score: microF1,
        binary: false,
      });
    else tasks.push(accuracy(dataset.name, includes));
  }
  return tasks;
}

/** MedOdyssey's report rows for `medbench compare` and rank intervals: the ten datasets, under ESM or SSM. */
export const medodysseyScoring: SuiteScoring = {
  variants: MEDODYSSEY_METRICS,
  tasks: (variant) => medodysseyTasks(variant),
};
