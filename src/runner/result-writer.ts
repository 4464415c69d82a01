import { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { ResultRecord, Store } from '../store/store.js';
import { redactResult } from './redact-result.js';

/** Longest a received response waits before its result is committed. */
export const GROUP_COMMIT_MS = 5;
/** Results waiting that trigger an immediate commit. */
export const GROUP_COMMIT_MAX = 64;

/**
 * The one way results reach the store, for every kind of run.
 *
 * A fresh answer is committed at once (`keepAnswer`), synchronously, in the same turn of the
 * event loop in which it arrived, so a kill -9 can lose only answers still on the wire and a
 * re-run never pays for one twice; its result follows as soon as it is scored (`write(…, true)`).
 * Results that cost nothing to redo (cache hits, too_long, errors, computed scores) are committed
 * in groups: at most GROUP_COMMIT_MS later, or at once when GROUP_COMMIT_MAX are waiting.
 *
 * With `deferUntilAnswer`, nothing is written before the first answer (or the end of a run that
 * needs none): a run that fails at once on credentials or reachability leaves the store as it was.
 */
export class ResultWriter {
  private readonly queue: Array<() => void> = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private committed: boolean;
  private readonly buffered: ResultRecord[] = [];
  /** The first failed write; the run stops and reports it. */
  failure: unknown;

  constructor(
    private readonly store: Store,
    private readonly run: RunRecord,
    private readonly options: {
      deferUntilAnswer: boolean;
      onFailure?: () => void;
      /** --redact: every result is stored as `redactResult` makes it (hashes and lengths, no text). */
      redactText?: boolean;
    },
  ) {
    this.committed = !options.deferUntilAnswer || store.getRun(run.id) !== undefined;
  }

  private put(result: ResultRecord): void {
    this.store.putResult(this.options.redactText ? redactResult(result) : result);
  }

  /** Whether this writer has written the run row (once per run; INSERT OR IGNORE). */
  private started = false;

  private writeNow(work: () => void): void {
    try {
      this.store.transaction(() => {
        if (!this.started) this.store.ensureRun(this.run);
        this.started = true;
        work();
      });
    } catch (error) {
      this.failure ??= error;
      this.options.onFailure?.();
    }
  }

  private flushQueue = (): void => {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.queue.splice(0);
    if (batch.length > 0)
      this.writeNow(() => {
        for (const work of batch) work();
      });
  };

  private later(work: () => void): void {
    this.queue.push(work);
    if (this.queue.length >= GROUP_COMMIT_MAX) this.flushQueue();
    else this.flushTimer ??= setTimeout(this.flushQueue, GROUP_COMMIT_MS);
  }

  /** Commits a fresh answer (to the response cache), with the run and what waited the first time. */
  keepAnswer(putInCache: () => void): void {
    if (this.committed) {
      this.writeNow(putInCache);
      return;
    }
    this.committed = true;
    const items = this.buffered.splice(0);
    this.writeNow(() => {
      putInCache();
      for (const item of items) this.put(item);
    });
  }

  /** `answered`: the result of a fresh answer, committed now; others may wait for a group. */
  write(result: ResultRecord, answered = false): void {
    if (!this.committed) this.buffered.push(result);
    else if (answered) this.writeNow(() => this.put(result));
    else this.later(() => this.put(result));
  }

  /** Several results in one transaction, now (a computed batch). */
  writeAll(results: readonly ResultRecord[]): void {
    this.flushQueue();
    this.committed = true;
    this.writeNow(() => {
      for (const result of results) this.put(result);
    });
  }

  /**
   * The end of the run: what waits for a group is committed; results held back for a first answer
   * are committed too unless the run failed as a whole (`fatal`), which leaves the store as it was.
   */
  close(fatal: boolean): void {
    this.flushQueue();
    if (fatal || this.committed || this.buffered.length === 0) return;
    this.committed = true;
    const items = this.buffered.splice(0);
    this.writeNow(() => {
      for (const item of items) this.put(item);
    });
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
