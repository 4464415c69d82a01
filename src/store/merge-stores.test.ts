import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/temporary-folder.js';
import { testCacheEntry, testResultRecord, testRun } from '../../test/support/test-run.js';
import { mergeStores } from './merge-stores.js';
import { MIGRATIONS } from './migrations.js';
import { Store } from './store.js';

describe('mergeStores and the prompt-cache columns', () => {
  it("brings a source's cached and cache-written tokens and list costs along; a source of schema 6 is migrated first", () => {
    const folder = temporaryFolder('medbench-merge-');
    const usage = { cachedInputTokens: 2, cacheWriteTokens: 1 };
    const source = new Store(join(folder, 'source.sqlite'));
    source.ensureRun(testRun({ id: 'r1' }));
    source.putResult(testResultRecord({ runId: 'r1', sampleId: 'a', ...usage, cost: 0.25, listCost: 0.5 }));
    const entry = testCacheEntry('k1');
    source.putCachedResponse({ ...entry, response: { ...entry.response, ...usage } });
    source.close();
    // A store written before the columns existed.
    const oldPath = join(folder, 'old.sqlite');
    const old = new Database(oldPath);
    for (const migration of MIGRATIONS.slice(0, 6)) old.exec(migration);
    old.pragma('user_version = 6');
    old.close();
    const target = join(folder, 'target.sqlite');
    const [merged] = mergeStores(target, [join(folder, 'source.sqlite'), oldPath]);
    expect(merged).toMatchObject({ runs: 1, results: 1, responses: 1 });
    const store = new Store(target);
    expect(store.results('r1')[0]).toMatchObject({ ...usage, cost: 0.25, listCost: 0.5 });
    expect(store.getCachedResponse('k1')).toMatchObject(usage);
    store.close();
    const migrated = new Database(oldPath, { readonly: true });
    expect(migrated.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    migrated.close();
  });
});

describe('mergeStores and the explicit caches’ costs', () => {
  it("adds each shard's caches to the run's cost by task, and counts a store merged twice once", () => {
    const folder = temporaryFolder('medbench-merge-');
    const shard = (name: string, cache: string) => {
      const store = new Store(join(folder, name));
      store.ensureRun(testRun({ id: 'r1' }));
      store.explicitCaches.addCost({ runId: 'r1', task: 'mednli', cache, cost: 0.001 });
      store.explicitCaches.addCost({ runId: 'r1', task: 'mednli', cache, cost: 0.0005 });
      store.close();
      return join(folder, name);
    };
    const target = join(folder, 'target.sqlite');
    const one = shard('one.sqlite', 'cachedContents/a');
    mergeStores(target, [one, shard('two.sqlite', 'cachedContents/b')]);
    mergeStores(target, [one]);
    const store = new Store(target);
    expect(store.explicitCaches.costsOf('r1').get('mednli')).toBeCloseTo(0.003, 12);
    store.deleteRun('r1');
    expect(store.explicitCaches.costsOf('r1').size).toBe(0);
    store.close();
  });
});

describe('mergeStores and the runs’ recipes', () => {
  it("brings each run's recipe (the first kept) and every model version its shards' answers named; deleteRun drops them", () => {
    const folder = temporaryFolder('medbench-merge-');
    const shard = (name: string, version: string) => {
      const store = new Store(join(folder, name));
      store.ensureRun(testRun({ id: 'r1' }));
      store.recipes.put('r1', { from: name });
      store.recipes.put('r1', { from: 'a resume of it' });
      store.recipes.addModelVersion('r1', version);
      store.recipes.addModelVersion('r1', 'gpt-4o-2024-08-06');
      store.close();
      return join(folder, name);
    };
    const target = join(folder, 'target.sqlite');
    mergeStores(target, [shard('one.sqlite', 'gpt-4o-2024-11-20'), shard('two.sqlite', 'gpt-4o-2024-05-13')]);
    const store = new Store(target);
    expect(store.recipes.get('r1')).toEqual({ from: 'one.sqlite' });
    expect(store.recipes.modelVersions('r1')).toEqual([
      'gpt-4o-2024-05-13',
      'gpt-4o-2024-08-06',
      'gpt-4o-2024-11-20',
    ]);
    store.deleteRun('r1');
    expect([store.recipes.get('r1'), store.recipes.modelVersions('r1')]).toEqual([undefined, []]);
    store.close();
  });
});
