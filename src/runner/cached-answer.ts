import type { ChatModel } from '../core/chat-model.js';
import { CLAIM_LEASE_MS, type RequestClaims } from '../store/request-claims.js';
import type { CachedResponse, Store } from '../store/store.js';
import type { ModelBinding } from './model-binding.js';
import { responseCacheKey } from './response-cache-key.js';
import { sleep } from './retry.js';
import type { SampleRequest } from './sample-request.js';

/** How often a sample whose request another process holds looks for that process's answer. */
const CLAIM_POLL_MS = 200;

/** The response cache and the request claims of one run, shared by its workers. */
export class AnswerCache {
  /** Every endpoint of the binding, for claims: one process sends a request, whichever endpoint. */
  private readonly endpointGroup: string;
  private readonly renewal: NodeJS.Timeout | undefined;

  /**
   * The cache keys of this model in the store when the run began, and of every answer it got
   * since: a key not among them is not in the store unless another process put it there, which
   * the look-up after taking a request's claim catches. The others cost no SQLite read.
   */
  private readonly known: Set<string>;
  /** The claims' `othersVersion` when `known` was read: while it holds, no other process stored an answer since. */
  private readonly quietVersion: number | undefined;
  private readonly detach: (() => void) | undefined;
  /** Each request's cache key per endpoint, computed once. */
  private readonly keys = new WeakMap<SampleRequest, Map<ChatModel, string>>();
  /**
   * The requests this run is sending, by their key on the binding's first endpoint, each with a
   * promise settled when it is answered (and the answer stored) or given up: a sample with the
   * same request waits for that answer instead of paying for it a second time.
   */
  private readonly sending = new Map<string, Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly model: ModelBinding,
    private readonly claims: RequestClaims | undefined,
    /** An answer on its way to the store (the writer thread's), by cache key. */
    private readonly unconfirmed: (cacheKey: string) => CachedResponse | undefined = () => undefined,
  ) {
    // Read before the store: an answer another process commits later is followed by a claims write.
    this.quietVersion = claims?.othersVersion();
    this.detach = claims?.attach();
    this.known = new Set(store.responseKeys(model.provider, model.modelId));
    this.endpointGroup = [...new Set(model.endpoints.map((entry) => entry.model.endpoint))].sort().join(' ');
    // Claims lapse unless renewed: renewed while this runner works, so only a dead process's lapse.
    this.renewal = claims ? setInterval(() => claims.renew(), CLAIM_LEASE_MS / 3) : undefined;
    this.renewal?.unref();
  }

  keyFor(chat: ChatModel, request: SampleRequest): string {
    let keys = this.keys.get(request);
    if (!keys) {
      keys = new Map();
      this.keys.set(request, keys);
    }
    let key = keys.get(chat);
    if (key === undefined) {
      key = responseCacheKey({
        provider: chat.provider,
        endpoint: chat.endpoint,
        modelId: chat.modelId,
        parameters: request.keyParameters,
        messagesDigest: request.digest,
      });
      keys.set(chat, key);
    }
    return key;
  }

  /**
   * The answer this run got since `findOrClaim` for a request it prepared (a sample with the same
   * request answered meanwhile), read from what the run knows it stored; undefined otherwise.
   */
  answeredMeanwhile(endpoint: ChatModel, request: SampleRequest): CachedResponse | undefined {
    return this.lookUp(endpoint, request);
  }

  /** An answer this run got (stored under `cacheKey`): later look-ups read it. */
  remember(cacheKey: string): void {
    this.known.add(cacheKey);
  }

  /**
   * A binding's endpoints serve one model: an answer any of them gave is this request's answer
   * (a fresh one is stored under the endpoint that gave it).
   */
  private lookUp(endpoint: ChatModel, request: SampleRequest, everyKey = false): CachedResponse | undefined {
    let found = this.find(this.keyFor(endpoint, request), everyKey);
    for (const other of this.model.endpoints) {
      if (found) break;
      if (other.model !== endpoint) found = this.find(this.keyFor(other.model, request), everyKey);
    }
    return found;
  }

  /** `everyKey`: read the store also for a key not known to be there. */
  private find(cacheKey: string, everyKey: boolean): CachedResponse | undefined {
    const pending = this.unconfirmed(cacheKey);
    if (pending) return pending;
    if (!everyKey && !this.known.has(cacheKey)) return undefined;
    return this.store.getCachedResponse(cacheKey);
  }

  /**
   * The cached answer, or the right to send the request: another process running the same
   * requests (the same binding) may be asking already, and then this one waits for its answer
   * rather than pay for it twice. `undefined`: stopped while waiting (the next run does it).
   */
  async findOrClaim(
    endpoint: ChatModel,
    request: SampleRequest,
    options: {
      deadline: number | undefined;
      signal: AbortSignal;
      /** The request cannot be sent before a while (its slot is busy): its claim may wait for others. */
      canWait?: boolean;
    },
  ): Promise<{ cached: CachedResponse | undefined; release: () => void } | undefined> {
    let cached = this.lookUp(endpoint, request);
    // The same request being sent by this run (another sample): its answer, once it has it.
    const twinKey = this.keyFor(this.model.endpoints[0]?.model ?? endpoint, request);
    for (let twin = this.sending.get(twinKey); !cached && twin; twin = this.sending.get(twinKey)) {
      if (!(await settledUnlessStopped(twin, options.signal))) return undefined;
      // Not there: that request failed, and this sample tries it itself.
      cached = this.lookUp(endpoint, request);
    }
    if (cached) return { cached, release: () => {} };
    const { claims } = this;
    if (!claims) return { cached, release: this.sendingNow(twinKey) };
    const claimKey = responseCacheKey({
      provider: endpoint.provider,
      endpoint: this.endpointGroup,
      modelId: endpoint.modelId,
      parameters: request.keyParameters,
      messagesDigest: request.digest,
    });
    // Marked as being sent from now: a twin asking meanwhile waits for this one, not for a claim.
    const sent = this.sendingNow(twinKey);
    let claimed = false;
    const release = () => {
      if (claimed) claims.releaseSoon(claimKey);
      claimed = false;
      sent();
    };
    try {
      while (!cached) {
        // Taken at the end of this turn, with the other claims asked for in it (one transaction).
        const { taken, fresh, othersVersion } = await claims.claimSoon(claimKey, {
          canWait: options.canWait ?? false,
        });
        if (taken) {
          // Taken: an answer another process stored before it let go is in the cache now. Unless
          // no process let go of (or left) a claim since `known` was read: then no answer was
          // stored but this run's, which `known` holds, and the store is not read again.
          const alone = fresh && claims.alone && othersVersion === this.quietVersion;
          cached = this.lookUp(endpoint, request, !alone);
          if (cached) claims.releaseSoon(claimKey);
          else claimed = true;
          break;
        }
        if (options.deadline !== undefined && Date.now() >= options.deadline) break;
        await sleep(CLAIM_POLL_MS, options.signal);
        cached = this.lookUp(endpoint, request, true);
      }
    } catch (error) {
      sent();
      // Stopped while waiting (the next run does it), or the claims file failed.
      if (options.signal.aborted) return undefined;
      throw error;
    }
    // Nothing to send: the twins waiting for this one find the answer now.
    if (cached) sent();
    return { cached, release };
  }

  /** Marks the request under `twinKey` as being sent; the function it returns ends that, once. */
  private sendingNow(twinKey: string): () => void {
    let settle = (): void => {};
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.sending.set(twinKey, settled);
    return () => {
      if (this.sending.get(twinKey) === settled) this.sending.delete(twinKey);
      settle();
    };
  }

  /** A slot came free: claims that could wait are taken at the end of this turn. */
  hurry(): void {
    this.claims?.hurry();
  }

  /** Requests cancelled or left: another process (or the next run) may send them at once. */
  close(): void {
    this.detach?.();
    if (this.renewal) clearInterval(this.renewal);
    this.claims?.releaseAll();
  }
}

/** True once `promise` settles; false if `signal` ends the wait first. */
function settledUnlessStopped(promise: Promise<void>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const stop = () => resolve(false);
    signal.addEventListener('abort', stop, { once: true });
    void promise.then(() => {
      signal.removeEventListener('abort', stop);
      resolve(true);
    });
  });
}
