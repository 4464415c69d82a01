import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testRun } from '../../test/support/test-run.js';
import type { RunRecord } from '../core/run-record.js';
import { Store } from '../store/store.js';
import { resultRecord } from './result-columns.js';
import { type ComputedBatch, runComputed } from './run-computed.js';

const run: RunRecord = testRun({
  id: 'computed',
  suite: 'clue',
  label: 'baseline',
  model: { provider: 'baseline' },
});

let folder: string;
let store: Store;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'medbench-computed-'));
  store = new Store(join(folder, 'medbench.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Three batches of two samples; records which batches were computed. */
function batches(computed: string[], onCompute: (index: number) => void = () => {}): ComputedBatch[] {
  return [0, 1, 2].map((index) => ({
    ids: [`s${index}a`, `s${index}b`],
    compute: () => {
      computed.push(`b${index}`);
      onCompute(index);
      return ['a', 'b'].map((part) =>
        resultRecord({
          runId: run.id,
          sample: {
            id: `s${index}${part}`,
            task: 'mednli',
            params: {},
            gold: { label: 'x' },
            promptChars: 0,
          },
          prompt: null,
          promptTokens: null,
          outcome: { status: 'ok', rawOutput: null, parsed: null, scores: { accuracy: index / 2 } },
        }),
      );
    },
  }));
}

describe('runComputed', () => {
  it('stores every batch; a second run of the same identity computes nothing', async () => {
    const computed: string[] = [];
    const first = await runComputed({ store, run, batches: batches(computed) });
    expect(first).toEqual({ total: 6, alreadyDone: 0, done: 6, interrupted: false });
    expect(store.results(run.id).map((result) => result.scores.accuracy)).toEqual([0, 0, 0.5, 0.5, 1, 1]);
    const second = await runComputed({ store, run, batches: batches(computed) });
    expect(second).toEqual({ total: 6, alreadyDone: 6, done: 0, interrupted: false });
    expect(computed).toEqual(['b0', 'b1', 'b2']);
  });

  it('a stop ends the run after the batch in hand; re-running computes only the rest', async () => {
    const stop = new AbortController();
    const computed: string[] = [];
    const first = await runComputed({
      store,
      run,
      stopSignal: stop.signal,
      batches: batches(computed, (index) => index === 0 && stop.abort()),
    });
    expect(first).toEqual({ total: 6, alreadyDone: 0, done: 2, interrupted: true });
    expect(store.results(run.id)).toHaveLength(2);
    const second = await runComputed({ store, run, batches: batches(computed) });
    expect(second).toEqual({ total: 6, alreadyDone: 2, done: 4, interrupted: false });
    expect(computed).toEqual(['b0', 'b1', 'b2']);
  });

  it('a failing batch is thrown; the batches before it stay stored', async () => {
    const computed: string[] = [];
    await expect(
      runComputed({
        store,
        run,
        batches: batches(computed, (index) => {
          if (index === 1) throw new Error('encoder crashed');
        }),
      }),
    ).rejects.toThrow('encoder crashed');
    expect(store.results(run.id).map((result) => result.sampleId)).toEqual(['s0a', 's0b']);
  });
});
