import { mean } from '../../metrics/set-f1.js';

/**
 * CLUE's aggregate (SuperGLUE style): each dataset scores the mean of its metrics, and a
 * level scores the mean of its datasets. Metrics not computed (undefined) are left out.
 */
export function levelScore(
  datasets: Readonly<Record<string, Readonly<Record<string, number | undefined>>>>,
): number {
  return mean(
    Object.values(datasets).map((metrics) =>
      mean(Object.values(metrics).filter((value): value is number => value !== undefined)),
    ),
  );
}
