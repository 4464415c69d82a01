import type { RunRecord } from '../core/run-record.js';
import type { CachedResponse, ResultRecord, Store } from '../store/store.js';

/** A fresh answer for the response cache. */
export interface CacheEntry {
  cacheKey: string;
  provider: string;
  modelId: string;
  response: CachedResponse;
}

/** One write a run makes, as data: applied in this thread or sent to the writer thread (`StoreWritePath`). */
export type StoreWrite =
  | { kind: 'run'; run: RunRecord }
  | { kind: 'answer'; entry: CacheEntry }
  | { kind: 'result'; result: ResultRecord };

/**
 * Where a run's writes are committed: in the run's own thread (`InThreadStoreWrites`) or on the
 * store's writer thread (`StoreWriterThread`). Both pass one contract
 * (test/support/store-write-path-contract.ts).
 */
export interface StoreWritePath {
  /**
   * Commits `writes` after every earlier call's, all of them or none (in one transaction, perhaps
   * with others); resolves once committed, rejects with the error that undid them.
   */
  write(writes: StoreWrite[]): Promise<void>;
  /** Resolves once every write made before it has been committed or has failed; never rejects. */
  flush(): Promise<void>;
  /** Waits for every write made before it (as `flush`), then lets go of what it holds (not the store). */
  close(): Promise<void>;
}

/** Commits in the caller's thread, synchronously inside `write`: nothing is ever pending. */
export class InThreadStoreWrites implements StoreWritePath {
  constructor(private readonly store: Store) {}

  write(writes: StoreWrite[]): Promise<void> {
    try {
      this.store.transaction(() => applyStoreWrites(this.store, writes));
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Applies `writes` in order, inside the caller's transaction. */
export function applyStoreWrites(store: Store, writes: readonly StoreWrite[]): void {
  for (const write of writes) {
    if (write.kind === 'run') store.ensureRun(write.run);
    else if (write.kind === 'answer') store.putCachedResponse(write.entry);
    else store.putResult(withBufferPrompt(write.result));
  }
}

/** A prepared prompt that crossed threads arrives as a plain Uint8Array; SQLite binds Buffers. */
function withBufferPrompt(result: ResultRecord): ResultRecord {
  const { prompt } = result;
  if (prompt === null || typeof prompt === 'string' || Buffer.isBuffer(prompt.content)) return result;
  const bytes = prompt.content as Uint8Array;
  return {
    ...result,
    prompt: { ...prompt, content: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
  };
}
