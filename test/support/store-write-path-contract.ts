import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreWrite, StoreWritePath } from '../../src/runner/store-writes.js';
import { preparePrompt, Store } from '../../src/store/store.js';
import { temporaryFolder } from './temporary-folder.js';
import { testCacheEntry, testResultRecord, testRun } from './test-run.js';

const run = testRun({ id: 'r1' });

function answer(cacheKey: string, text: string): StoreWrite {
  return { kind: 'answer', entry: testCacheEntry(cacheKey, text) };
}

/** An answer the store refuses (its text is NOT NULL): the commit it is in is undone. */
const refused = answer('refused', null as unknown as string);

/** A result with a prepared prompt: its bytes cross threads on the writer thread's path. */
function resultWrite(sampleId: string, rawOutput = `output ${sampleId}`): StoreWrite {
  const prompt = `prompt of ${sampleId}`;
  return {
    kind: 'result',
    result: testResultRecord({
      runId: 'r1',
      sampleId,
      prompt: preparePrompt(prompt),
      rawOutput,
      parsed: rawOutput,
    }),
  };
}

/** Tracks how a promise settled. */
function watch(promise: Promise<void>) {
  const state: { outcome?: 'resolved' | 'rejected' } = {};
  promise.then(
    () => {
      state.outcome = 'resolved';
    },
    () => {
      state.outcome = 'rejected';
    },
  );
  return state;
}

/**
 * What every `StoreWritePath` must do (in this thread, and on the compiled writer thread): commit
 * what it is given, in order, each call's writes all or none; report a failed commit; flush and
 * close only once every earlier write is done; leave a file a later run reads back and adds to.
 * `create` gives a write path for `store`'s file.
 */
export function runStoreWritePathContract(name: string, create: (store: Store) => Promise<StoreWritePath>) {
  describe(`${name}: store write path contract`, () => {
    let store: Store;
    beforeEach(() => {
      store = new Store(join(temporaryFolder('medbench-write-path-'), 'medbench.sqlite'));
    });
    afterEach(() => store.close());

    it('commits the run, answers and results, and resolves only once they are in the store', async () => {
      const path = await create(store);
      await path.write([{ kind: 'run', run }, answer('k1', 'x'), resultWrite('a')]);
      expect(store.getRun('r1')?.id).toBe('r1');
      expect(store.getCachedResponse('k1')?.text).toBe('x');
      const [stored] = store.results('r1');
      expect([stored?.sampleId, stored?.rawOutput]).toEqual(['a', 'output a']);
      expect(store.getPrompt(stored!.promptHash!)).toBe('prompt of a');
      await path.close();
    });

    it("keeps an answer's cached and cache-written tokens and a result's list cost as written", async () => {
      const path = await create(store);
      const entry = testCacheEntry('k1', 'x');
      const usage = { cachedInputTokens: 2, cacheWriteTokens: 1 };
      const result = resultWrite('a');
      if (result.kind === 'result') Object.assign(result.result, usage, { cost: 0.25, listCost: 0.5 });
      await path.write([
        { kind: 'run', run },
        { kind: 'answer', entry: { ...entry, response: { ...entry.response, ...usage } } },
        result,
      ]);
      expect(store.getCachedResponse('k1')).toMatchObject(usage);
      expect(store.results('r1')[0]).toMatchObject({ ...usage, cost: 0.25, listCost: 0.5 });
      await path.close();
    });

    it('commits in the order written, also writes made without waiting', async () => {
      const path = await create(store);
      const writes: Array<Promise<void>> = [path.write([{ kind: 'run', run }])];
      for (let index = 0; index < 30; index++) {
        // The same answer and result row each time: the last one written is the one left.
        writes.push(path.write([answer('same', `text ${index}`), resultWrite('same', `output ${index}`)]));
        writes.push(path.write([resultWrite(`s${String(index).padStart(2, '0')}`)]));
        // Some in one message, some in separate ones (a message leaves when the microtasks end).
        if (index % 3 === 0) await Promise.resolve();
      }
      await Promise.all(writes);
      expect(store.getCachedResponse('same')?.text).toBe('text 29');
      const stored = store.results('r1');
      expect(stored.find((row) => row.sampleId === 'same')?.rawOutput).toBe('output 29');
      expect(stored).toHaveLength(31);
      await path.close();
    });

    it("rejects a failed commit with the store's error, undoing all of its writes, and commits later ones", async () => {
      const path = await create(store);
      await path.write([{ kind: 'run', run }, resultWrite('before')]);
      await expect(path.write([resultWrite('lost'), refused])).rejects.toThrow(/NOT NULL constraint failed/);
      await path.write([resultWrite('after')]);
      expect(store.results('r1').map((row) => row.sampleId)).toEqual(['after', 'before']);
      expect(store.getCachedResponse('refused')).toBeUndefined();
      await path.close();
    });

    it('flushes: resolves once every earlier write has settled, a failed one too', async () => {
      const path = await create(store);
      await path.write([{ kind: 'run', run }]);
      const outcomes = [watch(path.write([resultWrite('a')])), watch(path.write([refused]))];
      await expect(path.flush()).resolves.toBeUndefined();
      expect(outcomes[0]!.outcome).toBeDefined();
      expect(outcomes[1]!.outcome).toBe('rejected');
      await path.close();
    });

    it('closes only once every write made before is committed', async () => {
      const path = await create(store);
      const outcomes = [watch(path.write([{ kind: 'run', run }]))];
      for (let index = 0; index < 20; index++) {
        outcomes.push(watch(path.write([resultWrite(`s${index}`), answer(`k${index}`, 'x')])));
        await Promise.resolve();
      }
      await path.close();
      expect(outcomes.map((state) => state.outcome)).toEqual(outcomes.map(() => 'resolved'));
      expect(store.countResults('r1')).toBe(20);
      expect(store.getCachedResponse('k19')?.text).toBe('x');
    });

    it('leaves a store that a later run reads back and adds to', async () => {
      const first = await create(store);
      await first.write([{ kind: 'run', run }, answer('k1', 'x'), resultWrite('a'), resultWrite('b')]);
      await first.close();
      store.close();
      store = new Store(store.path);
      expect(store.finishedSampleIds('r1')).toEqual(new Set(['a', 'b']));
      const again = await create(store);
      await again.write([{ kind: 'run', run }, resultWrite('c')]);
      await again.close();
      expect(store.results('r1').map((row) => row.sampleId)).toEqual(['a', 'b', 'c']);
      expect(store.getCachedResponse('k1')?.text).toBe('x');
    });
  });
}
