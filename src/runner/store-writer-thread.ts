import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { threadsWanted } from '../io/worker-pool.js';
import { SharedRing } from './shared-ring.js';
import type { StoreWrite, StoreWritePath } from './store-writes.js';
import {
  type EncodedMessage,
  encodeWriterMessage,
  ON_SIDE_PORT,
  type WriterMessage,
  type WriterThreadData,
} from './writer-record.js';

export type { WriterMessage } from './writer-record.js';

const SCRIPT = new URL('./store-writer-worker.js', import.meta.url);

/** The bytes of messages on their way to the writer thread: a few thousand answers. */
const RING_BYTES = 4 * 1024 * 1024;

/** What the writer thread answers: the calls it committed, or the error that undid them. */
export interface WriterReply {
  ids: number[];
  error?: string;
}

/**
 * A thread that owns a second connection to a store file and commits what it is sent, in order:
 * a run's main thread hands each answer over instead of spending a SQLite commit (about 0.3 ms
 * here) between reading one response and the next. It hands it over through shared memory (a
 * `SharedRing` the thread polls while answers come), not as a message, which would wake the
 * thread through the kernel for every answer. What arrives together is committed in one
 * transaction; the thread's replies are messages. Each `write` resolves once its writes are
 * committed (SQLite WAL, synchronous = NORMAL: a kill -9 of the process after that loses nothing)
 * and rejects with the error that undid them.
 */
export class StoreWriterThread implements StoreWritePath {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private ended: Error | undefined;

  /** Resolves once the thread has opened the store (a run sends nothing before). */
  readonly ready: Promise<void>;

  private readonly ring: SharedRing;
  /** How often a message found the ring full (and waited), and how many went on the side port. */
  readonly counts = { ringFull: 0, sidePort: 0 };
  private readonly side: MessagePort;
  /**
   * Messages not yet in the ring (it was full), sent in order, before any newer one, as the
   * thread reads; each encoded once.
   */
  private readonly backlog: Array<{ message: WriterMessage; encoded: EncodedMessage }> = [];

  private constructor(path: string, ringBytes: number) {
    this.ring = SharedRing.create(ringBytes);
    const { port1, port2 } = new MessageChannel();
    this.side = port1;
    // Only posted to: it keeps nothing running.
    this.side.unref();
    const workerData: WriterThreadData = { path, ring: this.ring.buffer, side: port2 };
    this.worker = new Worker(SCRIPT, { workerData, transferList: [port2] });
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
      // The thread has read what it replies to: the ring has room again.
      this.sendBacklog();
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
   * `ringBytes`: the room for messages on their way (tests try a small one).
   */
  static where(path: string, options: { ringBytes?: number } = {}): StoreWriterThread | undefined {
    if (path === ':memory:' || threadsWanted() < 2 || !existsSync(fileURLToPath(SCRIPT))) return undefined;
    return new StoreWriterThread(path, options.ringBytes ?? RING_BYTES);
  }

  /**
   * Commits `writes` (one transaction, perhaps with others). What is written before the current
   * callback's microtasks end goes into the ring as one message then: not at the end of the
   * loop's turn, where it would wait behind the callbacks already queued for the turn (a slice of
   * a long prompt's token count, about 8 ms, measured as answers re-sent after a kill -9).
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
    this.backlog.push({ message, encoded: encodeWriterMessage(message) });
    this.sendBacklog();
  };

  /** Puts waiting messages into the ring, in order, until it is full. */
  private sendBacklog(): void {
    while (this.backlog.length > 0) {
      const { message, encoded } = this.backlog[0]!;
      if (encoded.length <= this.ring.largest) {
        if (!this.ring.push(encoded.length, encoded.fill)) {
          this.counts.ringFull++;
          return;
        }
      } else {
        // Larger than the ring can hold: a message on the side port, then the ring's marker that
        // tells the thread to read it there (room for the marker checked first: only this thread
        // takes room).
        if (!this.ring.hasRoom(ON_SIDE_PORT.length)) {
          this.counts.ringFull++;
          return;
        }
        this.side.postMessage(message);
        this.counts.sidePort++;
        this.ring.push(ON_SIDE_PORT.length, (into) => into.set(ON_SIDE_PORT));
      }
      this.backlog.shift();
    }
  }

  /** Waits for every write sent: they commit in order, so once a last, empty one is done, so is every other. */
  flush(): Promise<void> {
    return this.write([]).catch(() => undefined);
  }

  /** Waits for every write sent (`flush`), then stops the thread. */
  async close(): Promise<void> {
    await this.flush();
    this.ended ??= new Error("the store's writer thread was closed");
    await this.worker.terminate();
    this.side.close();
  }
}
