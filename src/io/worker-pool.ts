import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type ErrorFields, errorFields, rebuiltError } from './error-fields.js';

/** What a pool's worker script answers a job with: a value, or the error it threw. */
interface Envelope<T> {
  id: number;
  value?: T;
  error?: ErrorFields;
}

/**
 * Worker threads for CPU-bound passes: one per core, each started once and kept while the pool
 * has work, never keeping the process alive while idle. The script is an ES module answering
 * each `{ id, input }` message with `{ id, value }` or `{ id, error }`. Jobs are handed out as
 * workers come free.
 */
export class WorkerPool<Input, Output> {
  readonly size: number;
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly waiting: Array<{ input: Input; transfer: ArrayBuffer[]; settle: Settle<Output> }> = [];
  private readonly pending = new Map<number, Settle<Output>>();
  private nextId = 0;

  constructor(
    private readonly script: URL,
    options: { size?: number } = {},
  ) {
    this.size = Math.max(1, options.size ?? threadsWanted());
  }

  /**
   * A pool on `script` when its compiled file exists (not when medbench runs from its TypeScript
   * sources) and there is more than one core; otherwise undefined, and the caller works in-thread.
   */
  static where<Input, Output>(
    script: URL,
    options: { size?: number } = {},
  ): WorkerPool<Input, Output> | undefined {
    const size = options.size ?? threadsWanted();
    if (size < 2 || !existsSync(fileURLToPath(script))) return undefined;
    return new WorkerPool<Input, Output>(script, { size });
  }

  run(input: Input, transfer: ArrayBuffer[] = []): Promise<Output> {
    return new Promise<Output>((resolve, reject) => {
      this.waiting.push({ input, transfer, settle: { resolve, reject } });
      this.dispatch();
    });
  }

  /** Stops every worker; jobs still running are rejected. */
  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      const worker = this.idle.pop() ?? (this.workers.length < this.size ? this.start() : undefined);
      if (!worker) return;
      const job = this.waiting.shift()!;
      const id = this.nextId++;
      this.pending.set(id, job.settle);
      worker.ref();
      worker.postMessage({ id, input: job.input }, job.transfer);
    }
  }

  private start(): Worker {
    const worker = new Worker(this.script);
    this.workers.push(worker);
    worker.on('message', (message: Envelope<Output>) => {
      const settle = this.pending.get(message.id);
      this.pending.delete(message.id);
      worker.unref();
      this.idle.push(worker);
      if (settle) {
        if (message.error !== undefined) settle.reject(rebuiltError(message.error));
        else settle.resolve(message.value as Output);
      }
      this.dispatch();
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) => this.fail(worker, new Error(`a worker stopped (exit code ${code})`)));
    return worker;
  }

  /** A worker that died takes its jobs with it: reject them all (the pool is then unusable). */
  private fail(worker: Worker, error: Error): void {
    if (!this.workers.includes(worker)) return;
    for (const settle of this.pending.values()) settle.reject(error);
    this.pending.clear();
    for (const job of this.waiting.splice(0)) job.settle.reject(error);
    void this.close();
  }
}

/** The pool on `script` (`WorkerPool.where`), made on first use and shared by later calls. */
export function sharedPool<Input, Output>(script: URL): () => WorkerPool<Input, Output> | undefined {
  let pool: WorkerPool<Input, Output> | undefined | null = null;
  return () => {
    if (pool === null) pool = WorkerPool.where<Input, Output>(script);
    return pool;
  };
}

/** Worker threads per pool: MEDBENCH_THREADS when set (1 keeps every pass in its own thread), else one per core. */
export function threadsWanted(): number {
  const wanted = Number(process.env.MEDBENCH_THREADS);
  return Number.isInteger(wanted) && wanted > 0 ? wanted : availableParallelism();
}

interface Settle<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

/** The body of a pool's worker script: answers each job with `work(input)`. */
export async function serveWorkerJobs<Input, Output>(
  work: (input: Input) => Output | Promise<Output>,
  transferOf: (output: Output) => ArrayBuffer[] = () => [],
): Promise<void> {
  const { parentPort } = await import('node:worker_threads');
  if (!parentPort) throw new Error('serveWorkerJobs runs in a worker thread');
  const port = parentPort;
  port.on('message', async ({ id, input }: { id: number; input: Input }) => {
    try {
      const value = await work(input);
      port.postMessage({ id, value }, transferOf(value));
    } catch (error) {
      port.postMessage({ id, error: errorFields(error) });
    }
  });
}
