import { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { CachedResponse, ResultRecord, Store } from '../store/store.js';
import { redactResult } from './redact-result.js';
import {
  type CacheEntry,
  InThreadStoreWrites,
  type StoreWrite,
  type StoreWritePath,
} from './store-writes.js';

/** Longest a received response waits before its result is committed. */
export const GROUP_COMMIT_MS = 5;
/** Results waiting that trigger an immediate commit. */
export const GROUP_COMMIT_MAX = 64;

/** Results waiting to be committed together, and the promise they resolve with. */
interface WaitingGroup {
  writes: StoreWrite[];
  committed: Promise<boolean>;
  settle: (committed: Promise<boolean>) => void;
}

/** None waits: nothing to add, nothing to settle (`later` never queues into it). */
const NO_GROUP: WaitingGroup = { writes: [], committed: Promise.resolve(true), settle: () => {} };

function waitingGroup(): WaitingGroup {
  let settle: (committed: Promise<boolean>) => void = () => {};
  const committed = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  return { writes: [], committed, settle };
}

/**
 * The one way results reach the store, for every kind of run.
 *
 * A fresh answer is committed at once (`keepAnswer`), so a kill -9 can lose only answers still
 * on the wire and a re-run never pays for one twice; its request claim is let go only once it is
 * committed. Results cost nothing to redo once their answer is stored (a re-run scores the cached
 * answer again), so every result is committed in a group: with the next fresh answer (one commit,
 * one message to the writer thread, instead of one each), at most GROUP_COMMIT_MS later, or at
 * once when GROUP_COMMIT_MAX are waiting. A result's promise resolves once it is committed: the
 * sample counts as done only then.
 *
 * Commits go to a `StoreWritePath`: this thread's, synchronously inside the call
 * (`InThreadStoreWrites`, the default), or — given as `path` — the store's writer thread
 * (`StoreWriterThread`), which commits each message the moment it arrives (in order), so that
 * reading responses never waits for SQLite.
 *
 * With `deferUntilAnswer`, nothing is written before the first answer (or the end of a run that
 * needs none): a run that fails at once on credentials or reachability leaves the store as it was.
 */
export class ResultWriter {
  private flushTimer: NodeJS.Timeout | undefined;
  private committed: boolean;
  private readonly buffered: ResultRecord[] = [];
  /** Whether the run row was written (once per run; INSERT OR IGNORE). */
  private started = false;
  /** Answers handed to the write path and not yet committed, found by cache look-ups meanwhile. */
  private readonly unconfirmed = new Map<string, CachedResponse>();
  /** The first failed write; the run stops and reports it. */
  failure: unknown;
  private readonly path: StoreWritePath;

  constructor(
    private readonly store: Store,
    private readonly run: RunRecord,
    private readonly options: {
      deferUntilAnswer: boolean;
      onFailure?: () => void;
      /** --redact: every result is stored as `redactResult` makes it (hashes and lengths, no text). */
      redactText?: boolean;
      /** Each result as the run made it, before --redact takes its text out (a caller that needs the answers). */
      onResult?: (result: ResultRecord) => void;
      /** Commits go there (`StoreWriterThread.where`) instead of happening here. */
      path?: StoreWritePath | undefined;
    },
  ) {
    this.path = options.path ?? new InThreadStoreWrites(store);
    this.committed = !options.deferUntilAnswer || store.getRun(run.id) !== undefined;
  }

  private resultWrite(result: ResultRecord): StoreWrite {
    return { kind: 'result', result: this.options.redactText ? redactResult(result) : result };
  }

  private failed(error: unknown): false {
    this.failure ??= error;
    this.options.onFailure?.();
    return false;
  }

  /** Commits `writes` (after the run row, the first time); true once committed. */
  private writeNow(writes: StoreWrite[]): Promise<boolean> {
    if (!this.started) writes.unshift({ kind: 'run', run: this.run });
    this.started = true;
    return this.path.write(writes).then(
      () => true,
      (error: unknown) => this.failed(error),
    );
  }

  /** The results waiting for a group, and the promise they resolve with once it is committed. */
  private group: WaitingGroup | undefined;

  /** The waiting group, taken out (empty when none waits); `settle` it with its commit. */
  private takeGroup(): WaitingGroup {
    const group = this.group ?? NO_GROUP;
    this.group = undefined;
    return group;
  }

  private flushQueue = (): void => {
    const { writes, settle } = this.takeGroup();
    if (writes.length > 0) settle(this.writeNow(writes));
  };

  private readonly onGroupTimer = (): void => {
    this.flushTimer = undefined;
    this.flushQueue();
  };

  /** Queues `write` for the next group; resolves once that group is committed. */
  private later(write: StoreWrite): Promise<boolean> {
    this.group ??= waitingGroup();
    const { writes, committed } = this.group;
    writes.push(write);
    if (writes.length >= GROUP_COMMIT_MAX) this.flushQueue();
    // One timer at a time: a group flushed with an answer leaves it to find the next one.
    else this.flushTimer ??= setTimeout(this.onGroupTimer, GROUP_COMMIT_MS);
    return committed;
  }

  /** A fresh answer not yet committed (on the writer thread, say), by its cache key. */
  unconfirmedAnswer(cacheKey: string): CachedResponse | undefined {
    return this.unconfirmed.get(cacheKey);
  }

  /**
   * Commits a fresh answer (to the response cache), with the run and what waited the first time;
   * `entry` undefined (--redact) commits only those. True once committed.
   */
  async keepAnswer(entry: CacheEntry | undefined): Promise<boolean> {
    const writes: StoreWrite[] = entry ? [{ kind: 'answer', entry }] : [];
    if (!this.committed) {
      this.committed = true;
      for (const item of this.buffered.splice(0)) writes.push(this.resultWrite(item));
    }
    // The results waiting for a group go with it: one commit for both.
    const group = this.takeGroup();
    writes.push(...group.writes);
    if (writes.length === 0) return true;
    // Found by cache look-ups until it is committed (at once, in this thread).
    if (entry) this.unconfirmed.set(entry.cacheKey, entry.response);
    const committed = this.writeNow(writes);
    group.settle(committed);
    if (!entry) return committed;
    try {
      return await committed;
    } finally {
      this.unconfirmed.delete(entry.cacheKey);
    }
  }

  /**
   * A result, committed with the next group (see the class); true once committed. Before the
   * run's first answer (`deferUntilAnswer`) it is held back and resolves at once.
   */
  write(result: ResultRecord): Promise<boolean> {
    this.options.onResult?.(result);
    if (this.committed) return this.later(this.resultWrite(result));
    this.buffered.push(result);
    return Promise.resolve(true);
  }

  /** Several results in one transaction, now (a computed batch); true once committed. */
  writeAll(results: readonly ResultRecord[]): Promise<boolean> {
    if (this.options.onResult) for (const result of results) this.options.onResult(result);
    this.flushQueue();
    this.committed = true;
    return this.writeNow(results.map((result) => this.resultWrite(result)));
  }

  /**
   * The end of the run: what waits for a group is committed; results held back for a first answer
   * are committed too unless the run failed as a whole (`fatal`), which leaves the store as it was.
   * Resolves when every write is committed.
   */
  async close(fatal: boolean): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.flushQueue();
    if (!fatal && !this.committed && this.buffered.length > 0) {
      this.committed = true;
      void this.writeNow(this.buffered.splice(0).map((item) => this.resultWrite(item)));
    }
    // Once the path is flushed, every write is committed (and a failure among them is recorded).
    await this.path.flush();
  }

  /** Throws the first failed write as a STORE_ERROR naming the store. */
  throwIfFailed(): void {
    if (this.failure === undefined) return;
    throw new MedbenchError({
      code: 'STORE_ERROR',
      message: `Could not write results to ${this.store.path}: ${(this.failure as Error).message}`,
      hint: 'Check free disk space and permissions; re-run the same command to finish.',
      cause: this.failure,
    });
  }
}
