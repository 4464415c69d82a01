import { meanTask, type SuiteScoring } from '../../core/scored-task.js';
import { clueUnitOf } from './clue-intervals.js';
import { CLUE_PRIMARY_METRICS } from './clue-tasks.js';

const TASK_ORDER = Object.keys(CLUE_PRIMARY_METRICS);

/**
 * CLUE's tasks for `medbench compare` and rank intervals: each task's mean of its primary metric
 * (accuracy, ROUGE-L, exact-match F1), LongHealth resampled by patient, every other item alone.
 */
export const clueScoring: SuiteScoring = {
  variants: ['primary'],
  tasks: (_variant, rows) => {
    const present = new Set(rows.map((row) => row.task));
    return TASK_ORDER.filter((task) => present.has(task)).map((task) => {
      const metric = CLUE_PRIMARY_METRICS[task as keyof typeof CLUE_PRIMARY_METRICS];
      return meanTask({
        key: task,
        statistic: metric,
        includes: (row) => row.task === task,
        unit: (row) => clueUnitOf(row) ?? row.sampleId,
        metric,
        binary: metric === 'accuracy',
      });
    });
  },
};
