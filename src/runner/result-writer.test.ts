import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/temporary-folder.js';
import { testCacheEntry, testResultRecord } from '../../test/support/test-run.js';
import type { RunRecord } from '../core/run-record.js';
import { Store } from '../store/store.js';
import { GROUP_COMMIT_MS, ResultWriter } from './result-writer.js';

function temporaryStore(): Store {
  return new Store(join(temporaryFolder('medbench-writer-'), 'medbench.sqlite'));
}

const run: RunRecord = {
  id: 'r1',
  suite: 'medodyssey',
  label: 'model',
  datasetId: 'd',
  datasetPath: null,
  model: { provider: 'p', modelId: 'm' },
  parameters: {},
  source: 'medbench',
  scoringMode: 'standard',
  createdAt: '2026-01-01T00:00:00.000Z',
};

const result = (sampleId: string) => testResultRecord({ runId: 'r1', sampleId });
const answer = (key: string) => testCacheEntry(key);

/** Tracks whether a promise has settled, and with what. */
function watch(promise: Promise<boolean>) {
  const state: { settled: boolean; value?: boolean } = { settled: false };
  void promise.then((value) => {
    state.settled = true;
    state.value = value;
  });
  return state;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ResultWriter', () => {
  it("commits a result with the next fresh answer, in that answer's commit, and resolves only then", async () => {
    const store = temporaryStore();
    const writer = new ResultWriter(store, run, { deferUntilAnswer: false });
    const first = watch(writer.write(result('a')));
    const second = watch(writer.write(result('b')));
    await Promise.resolve();
    expect(store.countResults('r1')).toBe(0);
    expect([first.settled, second.settled]).toEqual([false, false]);
    // The answer's commit takes the waiting results with it (here, in this thread: at once).
    const kept = writer.keepAnswer(answer('k1'));
    expect(store.countResults('r1')).toBe(2);
    expect(store.getCachedResponse('k1')?.text).toBe('x');
    await expect(kept).resolves.toBe(true);
    await Promise.resolve();
    expect([first.value, second.value]).toEqual([true, true]);
    await writer.close(false);
    store.close();
  });

  it('commits a result no answer follows within GROUP_COMMIT_MS, and what waits at close', async () => {
    const store = temporaryStore();
    const writer = new ResultWriter(store, run, { deferUntilAnswer: false });
    const alone = watch(writer.write(result('a')));
    await pause(GROUP_COMMIT_MS + 20);
    expect(store.countResults('r1')).toBe(1);
    expect(alone.value).toBe(true);
    const last = watch(writer.write(result('b')));
    await writer.close(false);
    expect(store.countResults('r1')).toBe(2);
    await Promise.resolve();
    expect(last.value).toBe(true);
    store.close();
  });

  it('resolves false, and records the failure, when the commit fails', async () => {
    const store = temporaryStore();
    const writer = new ResultWriter(store, run, { deferUntilAnswer: false });
    const waiting = writer.write(result('a'));
    // An answer the store refuses (its text is NOT NULL): the whole commit is undone.
    const broken = {
      ...answer('k1'),
      response: { ...answer('k1').response, text: null as unknown as string },
    };
    await expect(writer.keepAnswer(broken)).resolves.toBe(false);
    await expect(waiting).resolves.toBe(false);
    expect(writer.failure).toBeDefined();
    expect(store.countResults('r1')).toBe(0);
    await writer.close(false);
    store.close();
  });
});
