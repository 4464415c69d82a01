import { runStoreWritePathContract } from '../../test/support/store-write-path-contract.js';
import { InThreadStoreWrites } from './store-writes.js';

// The other implementation, the store's writer thread, runs compiled: test/e2e/store-write-path.test.ts.
runStoreWritePathContract('in this thread', async (store) => new InThreadStoreWrites(store));
