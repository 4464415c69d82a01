import { join } from 'node:path';
import type { StoredResult } from '../../src/core/run-record.js';
import { Store } from '../../src/store/store.js';
import { testResult, testRun } from './test-run.js';

/** One dataset's results: item i scores `values[metric][i]` (LongHealth: sub-task i + 1, patient p<i>). */
function results(runId: string, task: string, values: Record<string, number[]>, protocol: string) {
  const items = Object.values(values)[0]!.length;
  return Array.from({ length: items }, (_, order) =>
    testResult({
      runId,
      task,
      sampleId: `${task}/${order}`,
      params: {
        protocol,
        order,
        ...(task === 'longhealth' ? { subtask: order + 1, question: `p${order}-q0` } : {}),
      },
      gold: {},
      rawOutput: 'x',
      scores: Object.fromEntries(Object.entries(values).map(([metric, list]) => [metric, list[order]!])),
    }),
  );
}

/** A run of all six datasets; `scale` multiplies every score, `protocol` sets the averaging (none named: plain means). */
export function clueRun(id: string, scale: number, protocol = 'none') {
  const s = (list: number[]) => list.map((value) => value * scale);
  const rows: StoredResult[] = [
    ...results(id, 'mednli', { accuracy: s([1, 1, 1, 0]) }, protocol),
    ...results(id, 'problem-summary', { rougeL: s([0.5, 0.7]), rouge1: s([0.8, 0.6]) }, protocol),
    ...results(id, 'meqsum', { rougeL: s([0.4, 0.6]) }, protocol),
    ...results(id, 'longhealth', { accuracy: s([1, 0.5]) }, protocol),
    ...results(id, 'medisumqa', { rougeL: s([0.3, 0.5]) }, protocol),
    ...results(id, 'medisumcode', { emF1: s([0.2, 0.4]) }, protocol),
  ];
  return {
    run: testRun({ id, suite: 'clue', label: id, parameters: { protocol: { name: protocol } } }),
    results: rows,
  };
}

/** Writes "full" and "half" (`clueRun`, every score halved) into the store of `home`. */
export function writeClueLeaderboardRuns(home: string): void {
  const store = new Store(join(home, 'medbench.sqlite'));
  try {
    for (const { run, results: rows } of [clueRun('full', 1), clueRun('half', 0.5)]) {
      store.ensureRun(run);
      for (const result of rows) store.putResult({ ...result, prompt: null });
    }
  } finally {
    store.close();
  }
}
