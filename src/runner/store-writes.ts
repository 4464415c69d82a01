import type { RunRecord } from '../core/run-record.js';
import type { CachedResponse, ResultRecord, Store } from '../store/store.js';

/** A fresh answer for the response cache. */
export interface CacheEntry {
  cacheKey: string;
  provider: string;
  modelId: string;
  response: CachedResponse;
}

/** One write a run makes, as data: applied in this thread or sent to the writer thread. */
export type StoreWrite =
  | { kind: 'run'; run: RunRecord }
  | { kind: 'answer'; entry: CacheEntry }
  | { kind: 'result'; result: ResultRecord };

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
