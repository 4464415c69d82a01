import type { RunRecord } from '../core/run-record.js';

/**
 * Report labels by run id: a label shared by several runs gets the run id's start (`label #3f9a0c`),
 * so rows stay apart; every suite's report names its runs this way.
 */
export function displayLabels(runs: ReadonlyArray<{ run: RunRecord }>): Map<string, string> {
  const counts = new Map<string, number>();
  for (const { run } of runs) counts.set(run.label, (counts.get(run.label) ?? 0) + 1);
  return new Map(
    runs.map(({ run }) => [
      run.id,
      (counts.get(run.label) ?? 0) > 1 ? `${run.label} #${run.id.slice(0, 6)}` : run.label,
    ]),
  );
}
