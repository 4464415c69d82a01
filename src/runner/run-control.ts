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

  /** One attempt with its own time limit; a hard stop cancels it. One controller and timer per attempt. */
  async generate(
    endpoint: ChatModel,
    request: { messages: ChatMessage[] } & Pick<ChatRequest, 'parameters' | 'truncatePromptTokens'>,
    timeoutMs: number,
  ) {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('The request timed out.', 'TimeoutError')),
      Math.max(1, timeoutMs),
    );
    const onHardStop = () => controller.abort(this.hardStop.signal.reason);
    this.hardStop.signal.addEventListener('abort', onHardStop, { once: true });
    try {
      return await endpoint.generate({ ...request, signal: controller.signal });
    } finally {
      clearTimeout(timer);
      this.hardStop.signal.removeEventListener('abort', onHardStop);
    }
  }

  dispose(): void {
    this.signals.abortSignal?.removeEventListener('abort', this.onAbort);
    this.hardStop.signal.removeEventListener('abort', this.endWaits);
    this.signals.stopSignal?.removeEventListener('abort', this.endWaits);
  }
}
