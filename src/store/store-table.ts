import type Database from 'better-sqlite3';
import type { CachedResponse } from './store-rows.js';

/** A table's own class (exported requests, provider batches): it reads and writes through the store's connection. */
export abstract class StoreTable {
  constructor(
    protected readonly database: () => Database.Database,
    /** Creates the store file on the first write. */
    protected readonly beforeWrite: () => void,
    /** The store's path, named when it turns out damaged. */
    readonly storePath: () => string,
    /** The store's own write of one cached response. */
    protected readonly putResponse: (entry: {
      cacheKey: string;
      provider: string;
      modelId: string;
      response: CachedResponse;
    }) => void,
  ) {}
}
