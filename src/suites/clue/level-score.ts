import { mean } from '../../metrics/set-f1.js';
import { JUDGE_METRIC } from './judge-task.js';

/**
 * CLUE's aggregate (SuperGLUE style): each dataset scores the mean of its metrics, and a
 * level scores the mean of its datasets. Metrics not computed (undefined) are left out, and so is
 * the judge's score (`medbench judge`), which is reported beside the papers' metrics, never in them.
 */
export function levelScore(
  datasets: Readonly<Record<string, Readonly<Record<string, number | undefined>>>>,
): number {
  return mean(
    Object.values(datasets).map((metrics) =>
      mean(
        Object.entries(metrics).flatMap(([metric, value]) =>
          value !== undefined && metric !== JUDGE_METRIC ? [value] : [],
        ),
      ),
    ),
  );
}
