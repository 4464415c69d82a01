import { StoreWriterThread } from '../../dist/runner/store-writer-thread.js';
import { runStoreWritePathContract } from '../support/store-write-path-contract.js';

// The write path a run on a store file takes with more than one core: the compiled writer thread
// (its worker script exists only in dist/). The in-thread path runs the same contract in
// src/runner/store-writes.test.ts.
runStoreWritePathContract('the writer thread (built)', async (store) => {
  const thread = StoreWriterThread.where(store.path);
  if (!thread) throw new Error('no writer thread here: a store file, two cores and dist/ are needed');
  await thread.ready;
  return thread;
});
