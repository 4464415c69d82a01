import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testRun } from '../../test/support/test-run.js';
import type { Leaderboard, Suite } from '../core/suite.js';
import { NO_MODEL_CALL, Store } from './store.js';
import { suiteLeaderboard } from './suite-leaderboard.js';

const folder = mkdtempSync(join(tmpdir(), 'medbench-leaderboard-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A suite whose leaderboard counts its computations and gives each run's mean esm. */
function countingSuite() {
  const calls = { count: 0 };
  const suite = {
    name: 'medodyssey',
    leaderboard: (runs): Leaderboard => {
      calls.count++;
      return {
        suite: 'medodyssey',
        variants: [{ key: 'esm', label: 'ESM', columns: [{ key: 'all', label: 'all' }] }],
        rows: runs.map(({ run, results }) => ({
          runId: run.id,
          label: run.label,
          imported: false,
          samples: results.length,
          values: {
            esm: {
              all: (100 * results.reduce((sum, row) => sum + (row.scores.esm ?? 0), 0)) / results.length,
            },
          },
        })),
      };
    },
  } as Pick<Suite, 'name' | 'leaderboard'> as Suite;
  return { suite, calls };
}

function put(store: Store, sampleId: string, esm: number) {
  store.putResult({
    runId: 'r1',
    sampleId,
    task: 'niah',
    params: {},
    gold: null,
    prompt: null,
    promptChars: null,
    promptTokens: null,
    status: 'ok',
    rawOutput: 'x',
    parsed: null,
    scores: { esm },
    ...NO_MODEL_CALL,
  });
}

describe('saved leaderboards', () => {
  it('answer from the saved board until a result or a run changes, then compute again', () => {
    const path = join(folder, 'medbench.sqlite');
    const store = new Store(path);
    store.ensureRun(testRun({ id: 'r1', label: 'model-a' }));
    put(store, 's1', 1);
    put(store, 's2', 0);
    const { suite, calls } = countingSuite();
    const value = (board: Leaderboard) => board.rows[0]!.values.esm!.all;
    expect(value(suiteLeaderboard(store, suite, { save: true }))).toBe(50);
    expect(value(suiteLeaderboard(store, suite))).toBe(50);
    expect(calls.count).toBe(1);
    // A reader (the viewer) opened on the file answers from the saved board, and never writes.
    const reader = new Store(path, { readonly: true });
    expect(value(suiteLeaderboard(reader, suite, { save: true }))).toBe(50);
    expect(calls.count).toBe(1);
    // A new result, a rescored result and a changed run each make the saved board stale.
    put(store, 's3', 1);
    expect(value(suiteLeaderboard(reader, suite))).toBeCloseTo(66.667, 2);
    expect(calls.count).toBe(2);
    store.updateScores('r1', 's2', { esm: 1 });
    expect(value(suiteLeaderboard(store, suite, { save: true }))).toBe(100);
    expect(calls.count).toBe(3);
    store.updateRunParameters('r1', { note: 'rescored' });
    suiteLeaderboard(store, suite, { save: true });
    expect(calls.count).toBe(4);
    expect(value(suiteLeaderboard(reader, suite))).toBe(100);
    expect(calls.count).toBe(4);
    reader.close();
    store.close();
  });
});
