import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { threadsWanted } from '../io/worker-pool.js';
import type { StoreWrite } from './store-writes.js';

const SCRIPT = new URL('./store-writer-worker.js', import.meta.url);

/** What the writer thread is sent: writes to commit in order, and the ids of the calls they came from. */
export interface WriterMessage {
  ids: number[];
  writes: StoreWrite[];
}

/** What the writer thread answers: the calls it committed, or the error that undid them. */
export interface WriterReply {
  ids: number[];
  error?: string;
}

/**
 * A thread that owns a second connection to a store file and commits what it is sent, in order:
 * a run's main thread hands each answer over (a message) instead of spending a SQLite commit
 * (about 0.3 ms here) between reading one response and the next. Messages that arrive together
 * are committed in one transaction. Each `write` resolves once its writes are committed (SQLite
 * WAL, synchronous = NORMAL: a kill -9 of the process after that loses nothing) and rejects with
 * the error that undid them.
 */
export class StoreWriterThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private ended: Error | undefined;

  /** Resolves once the thread has opened the store (a run sends nothing before). */
  readonly ready: Promise<void>;

  private constructor(path: string) {
    this.worker = new Worker(SCRIPT, { workerData: { path } });
    let opened: () => void = () => {};
    this.ready = new Promise<void>((resolve) => {
      opened = resolve;
    });
    this.worker.on('message', (reply: WriterReply | 'ready') => {
      if (reply === 'ready') {
        // Held until then: a run waiting for it may have nothing else keeping the process up.
        if (this.pending.size === 0) this.worker.unref();
        return opened();
      }
      for (const id of reply.ids) {
        const settle = this.pending.get(id);
        this.pending.delete(id);
        if (reply.error === undefined) settle?.resolve();
        else settle?.reject(new Error(reply.error));
      }
      if (this.pending.size === 0) this.worker.unref();
    });
    const fail = (error: Error) => {
      this.ended ??= error;
      opened();
      for (const settle of this.pending.values()) settle.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) =>
      fail(new Error(`the store's writer thread stopped (exit code ${code})`)),
    );
  }

  /**
   * A writer thread for the store file at `path`, when there is one to share (not `:memory:`),
   * more than one core (MEDBENCH_THREADS=1 keeps writes in the run's thread) and the compiled
   * worker script (not when medbench runs from its TypeScript sources); otherwise undefined.
   */
  static where(path: string): StoreWriterThread | undefined {
    if (path === ':memory:' || threadsWanted() < 2 || !existsSync(fileURLToPath(SCRIPT))) return undefined;
    return new StoreWriterThread(path);
  }

  /**
   * Commits `writes` (one transaction, perhaps with others). What is written before the current
   * callback's microtasks end goes over as one message then: not at the end of the loop's turn,
   * where it would wait behind the callbacks already queued for the turn (a slice of a long
   * prompt's token count, about 8 ms, measured as answers re-sent after a kill -9).
   */
  write(writes: StoreWrite[]): Promise<void> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.outgoing.ids.push(id);
      for (const write of writes) this.outgoing.writes.push(write);
      if (!this.sendQueued) {
        this.sendQueued = true;
        queueMicrotask(this.send);
      }
    });
  }

  private outgoing: WriterMessage = { ids: [], writes: [] };
  private sendQueued = false;

  private readonly send = (): void => {
    this.sendQueued = false;
    const message = this.outgoing;
    this.outgoing = { ids: [], writes: [] };
    this.worker.postMessage(message);
  };

  /** Waits for every write sent (they commit in order: an empty one last), then stops the thread. */
  async close(): Promise<void> {
    await this.write([]).catch(() => undefined);
    this.ended ??= new Error("the store's writer thread was closed");
    await this.worker.terminate();
  }
}
