import { setMaxListeners } from 'node:events';
import type { ChatMessage, ChatModel, ChatRequest } from '../core/chat-model.js';

/**
 * The stops of one run. A graceful stop (first Ctrl-C, --fail-fast) sends no new requests and
 * ends the waits between retries at once (a long Retry-After must not hold Ctrl-C up); a hard
 * stop (second Ctrl-C, a fatal error, a failed write) also cancels the requests in flight.
 */
export class RunControl {
  readonly hardStop = new AbortController();
  readonly waitsEnd = new AbortController();
  private readonly endWaits = () => this.waitsEnd.abort();
  private readonly onAbort = () => this.hardStop.abort();

  constructor(
    private readonly signals: { stopSignal?: AbortSignal | undefined; abortSignal?: AbortSignal | undefined },
  ) {
    // One abort listener per request in flight: more than the default warning threshold.
    setMaxListeners(0, this.hardStop.signal);
    setMaxListeners(0, this.waitsEnd.signal);
    this.hardStop.signal.addEventListener('abort', this.endWaits, { once: true });
    signals.stopSignal?.addEventListener('abort', this.endWaits, { once: true });
    if (signals.stopSignal?.aborted) this.endWaits();
    signals.abortSignal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** No new sample starts once any stop came. */
  get stopped(): boolean {
    return this.waitsEnd.signal.aborted;
  }

  /** Waits `ms`, or less when a stop comes. */
  pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waitsEnd.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waitsEnd.signal.addEventListener('abort', done, { once: true });
    });
  }

  /** A graceful stop from inside (--fail-fast). */
  stop(): void {
    this.endWaits();
  }

  /** Attempts in flight, each with the moment it times out. */
  private readonly attempts = new Map<AbortController, number>();
  /** Times attempts out: one timer for all of them, set for the earliest deadline. */
  private sweep: NodeJS.Timeout | undefined;
  private sweepAt = Number.POSITIVE_INFINITY;

  private readonly timeOut = (): void => {
    this.sweep = undefined;
    this.sweepAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [controller, deadline] of this.attempts) {
      if (deadline <= now) {
        this.attempts.delete(controller);
        controller.abort(new DOMException('The request timed out.', 'TimeoutError'));
      } else next = Math.min(next, deadline);
    }
    this.armSweep(next);
  };

  private armSweep(deadline: number): void {
    if (deadline === Number.POSITIVE_INFINITY || deadline >= this.sweepAt) return;
    if (this.sweep) clearTimeout(this.sweep);
    this.sweepAt = deadline;
    this.sweep = setTimeout(this.timeOut, Math.max(1, deadline - performance.now()));
    this.sweep.unref();
  }

  private readonly cancelAttempts = (): void => {
    for (const controller of this.attempts.keys()) controller.abort(this.hardStop.signal.reason);
    this.attempts.clear();
  };

  /**
   * One attempt with its own time limit; a hard stop cancels it. The attempts share one timer
   * and one hard-stop listener (a request costs no timer or listener of its own).
   */
  async generate(
    endpoint: ChatModel,
    request: { messages: ChatMessage[] } & Pick<
      ChatRequest,
      'parameters' | 'truncatePromptTokens' | 'promptCache'
    >,
    timeoutMs: number,
  ) {
    const controller = new AbortController();
    if (this.hardStop.signal.aborted) controller.abort(this.hardStop.signal.reason);
    else {
      if (this.attempts.size === 0)
        this.hardStop.signal.addEventListener('abort', this.cancelAttempts, { once: true });
      const deadline = performance.now() + Math.max(1, timeoutMs);
      this.attempts.set(controller, deadline);
      this.armSweep(deadline);
    }
    try {
      return await endpoint.generate({ ...request, signal: controller.signal });
    } finally {
      this.attempts.delete(controller);
      if (this.attempts.size === 0) this.hardStop.signal.removeEventListener('abort', this.cancelAttempts);
    }
  }

  dispose(): void {
    if (this.sweep) clearTimeout(this.sweep);
    this.signals.abortSignal?.removeEventListener('abort', this.onAbort);
    this.hardStop.signal.removeEventListener('abort', this.endWaits);
    this.signals.stopSignal?.removeEventListener('abort', this.endWaits);
  }
}
