import { Worker } from 'node:worker_threads';

/**
 * A decoder run in a worker thread with a memory ceiling and a time limit. A decoder handed a
 * damaged file can allocate without bound or loop on a length it read; in a worker that becomes
 * a rejected promise instead of the whole process dying. The worker stays up between calls (it
 * takes ~70 ms to start with a decoding library loaded) and is replaced after a failure; it
 * never keeps the process alive while idle. Calls run one at a time.
 */
export class BoundedWorker {
  private worker: Worker | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * @param options.code CommonJS source defining `function decode(input)` (synchronous, may throw).
   * @param options.memoryMb old-generation heap ceiling of the worker.
   */
  constructor(private readonly options: { code: string; memoryMb: number }) {}

  /** Decodes `input` (transferring `transferList`); rejects with a plain Error the caller words for its file. */
  run<T>(input: unknown, options: { transferList?: ArrayBuffer[]; timeoutMs: number }): Promise<T> {
    const next = this.queue.then(() => this.runNow<T>(input, options));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private start(): Worker {
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
${this.options.code}
parentPort.on('message', (input) => {
  let answer;
  try {
    answer = { value: decode(input) };
  } catch (error) {
    answer = { error: String((error && error.message) || error) };
  }
  parentPort.postMessage(answer);
});`,
      {
        eval: true,
        resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb, maxYoungGenerationSizeMb: 64 },
        stdout: true,
        stderr: true,
      },
    );
    worker.unref();
    return worker;
  }

  private runNow<T>(
    input: unknown,
    options: { transferList?: ArrayBuffer[]; timeoutMs: number },
  ): Promise<T> {
    this.worker ??= this.start();
    const worker = this.worker;
    worker.ref();
    return new Promise<T>((resolve, reject) => {
      const done = (finish: () => void, broken: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (broken) {
          if (this.worker === worker) this.worker = undefined;
          void worker.terminate();
        } else worker.unref();
        finish();
      };
      const onMessage = (message: { value?: T; error?: string }) =>
        done(
          () =>
            message.error !== undefined ? reject(new Error(message.error)) : resolve(message.value as T),
          false,
        );
      const onError = (error: Error & { code?: string }) =>
        done(
          () =>
            reject(
              error.code === 'ERR_WORKER_OUT_OF_MEMORY'
                ? new Error(`decoding needed more than ${this.options.memoryMb} MB`)
                : error,
            ),
          true,
        );
      const onExit = (code: number) =>
        done(() => reject(new Error(`the decoder stopped (exit code ${code}) without an answer`)), true);
      const timer = setTimeout(
        () =>
          done(
            () => reject(new Error(`decoding took longer than ${Math.round(options.timeoutMs / 1000)} s`)),
            true,
          ),
        options.timeoutMs,
      );
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(input, options.transferList ?? []);
    });
  }
}
