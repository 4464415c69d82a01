import { join } from 'node:path';
import { Store } from '../../src/store/store.js';
import { testResultRecord, testRun } from './test-run.js';

/**
 * Runs whose comparison is checked by hand (`medbench compare model-a model-b`):
 *
 * En.Term, 10 samples, one each: both right on 2, both wrong on 1, A only on 1, B only on 6.
 * A = 3/10, B = 8/10, B − A = +50 points; McNemar exact: 7 discordant, the smaller side 1,
 * p = 2 · P(X ≤ 1 | Bin(7, ½)) = 2 · (1 + 7)/128 = 0.125.
 * Zh.Case, 10 samples in A, 9 in B (case-zh-9 only in A): A and B agree on every pair (4 right),
 * no discordant pair, p = 1. Holm over (0.125, 1): 2 · 0.125 = 0.25, then max(0.25, 1) = 1.
 * En.NIAH, 2 needles × 3 levels: the unit is the needle, 6 pairs in 2 units, the bootstrap's p.
 *
 * Besides: `twin` twice (dddd…, eeee…: one label, two runs), `other-data` (no sample shared) and
 * `clue-run` (another suite).
 */
type Pattern = Array<[number, number]>;
const TERM: Pattern = [
  [1, 1],
  [1, 1],
  [0, 0],
  [1, 0],
  [0, 1],
  [0, 1],
  [0, 1],
  [0, 1],
  [0, 1],
  [0, 1],
];
const CASE: Pattern = [
  [1, 1],
  [1, 1],
  [1, 1],
  [1, 1],
  [0, 0],
  [0, 0],
  [0, 0],
  [0, 0],
  [0, 0],
  [0, 0],
];
const NIAH: Pattern = [
  [1, 1],
  [1, 1],
  [1, 1],
  [0, 1],
  [0, 1],
  [0, 0],
];

/** One task's samples of a run: the pattern's `side` as its scores (both metrics), params per sample. */
const TASKS = [
  {
    task: 'term',
    pattern: TERM,
    id: 'term-en',
    params: (index: number) => ({ language: 'en', questionId: index }),
  },
  {
    task: 'case',
    pattern: CASE,
    id: 'case-zh',
    params: (index: number) => ({ language: 'zh', questionId: index }),
  },
  {
    task: 'niah',
    pattern: NIAH,
    id: 'niah-en',
    params: (index: number) => ({
      language: 'en',
      level: 1000 * (1 + (index % 3)),
      depth: 0,
      needleId: index % 2,
    }),
  },
];

export function writeCompareRuns(home: string): void {
  const store = new Store(join(home, 'medbench.sqlite'));
  try {
    const put = (runId: string, side: 0 | 1, options: { skip?: string; prefix?: string } = {}) => {
      for (const { task, pattern, id, params } of TASKS)
        pattern.forEach((pair, index) => {
          const sampleId = `${options.prefix ?? ''}${id}-${index}`;
          if (sampleId === options.skip) return;
          store.putResult(
            testResultRecord({
              runId,
              sampleId,
              task,
              params: { level: 4000, ...params(index) },
              scores: { esm: pair[side], ssm: pair[side] },
            }),
          );
        });
    };
    store.ensureRun(testRun({ id: 'aaaa000000000001', label: 'model-a' }));
    store.ensureRun(testRun({ id: 'bbbb000000000002', label: 'model-b' }));
    store.ensureRun(testRun({ id: 'dddd000000000003', label: 'twin' }));
    store.ensureRun(testRun({ id: 'eeee000000000004', label: 'twin' }));
    store.ensureRun(testRun({ id: 'ffff000000000005', label: 'other-data', datasetId: 'other' }));
    store.ensureRun(testRun({ id: 'cccc000000000006', label: 'clue-run', suite: 'clue' }));
    put('aaaa000000000001', 0);
    put('bbbb000000000002', 1, { skip: 'case-zh-9' });
    put('dddd000000000003', 0);
    put('eeee000000000004', 1);
    put('ffff000000000005', 1, { prefix: 'x-' });
    store.putResult(testResultRecord({ runId: 'cccc000000000006', sampleId: 'q1', task: 'mednli' }));
  } finally {
    store.close();
  }
}
