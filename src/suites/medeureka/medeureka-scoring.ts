import { meanTask, type SuiteScoring } from '../../core/scored-task.js';
import { MEDEUREKA_DATASETS } from './datasets.js';

/** The metrics `medbench compare` reads MedEureka under: Table 3's MRR@10 first, then Exact HR@10. */
const VARIANTS = ['mrr@10', 'hr@10'] as const;

/**
 * MedEureka's report rows for `medbench compare` and rank intervals: each dataset's mean of
 * one per-query metric (every query is its own sample, and its own unit), in Table 3's order.
 */
export const medeurekaScoring: SuiteScoring = {
  variants: VARIANTS,
  tasks: (variant, rows) => {
    const present = new Set(rows.map((row) => String(row.params.dataset)));
    return MEDEUREKA_DATASETS.filter((dataset) => present.has(dataset.name)).map((dataset) =>
      meanTask({
        key: dataset.name,
        statistic: variant.replace(/^mrr@/, 'MRR@').replace(/^hr@/, 'Exact HR@'),
        includes: (row) => row.params.dataset === dataset.name,
        unit: (row) => row.sampleId,
        metric: variant,
        binary: variant.startsWith('hr@'),
      }),
    );
  },
};
