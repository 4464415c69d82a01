import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { ChatMessage, ChatModel, ChatRequest } from '../core/chat-model.js';
import { isFatalForRun, MedbenchError } from '../core/errors.js';
import type { Sample } from '../core/sample.js';
import type { Task } from '../core/task.js';
import { CLAIM_LEASE_MS, type RequestClaims } from '../store/request-claims.js';
import { preparePromptAsync, type ResultRecord, type RunRecord, type Store } from '../store/store.js';
import { countTokensYielding } from '../tokenizers/count-tokens-yielding.js';
import { canonicalJson } from './canonical-json.js';
import type { ModelBinding } from './model-binding.js';
import { type RetryPolicy, retrying, sleep } from './retry.js';

/** Longest a received response waits before its result is committed. */
const GROUP_COMMIT_MS = 5;
/** Results waiting that trigger an immediate commit. */
const GROUP_COMMIT_MAX = 64;

export interface RunProgress {
  total: number;
  /** Finished in an earlier invocation of the same run. */
  alreadyDone: number;
  done: number;
  cached: number;
  tooLong: number;
  errors: number;
  /** Samples without an answer, by kind ("HTTP 500", "timeout", …). */
  errorKinds: Record<string, number>;
  /** The first error message of each kind (redacted as stored). */
  errorExamples: Record<string, string>;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  startedAt: number;
}

export interface RunSummary extends RunProgress {
  /** True when a stop request (or --fail-fast) ended the run before every sample was done. */
  interrupted: boolean;
  /** The failure that ended the run early under `failFast`. */
  failedFast: MedbenchError | undefined;
}

/** A retry about to wait, for progress output. */
export interface RetryEvent {
  sampleId: string;
  error: MedbenchError;
  delayMs: number;
  /** The attempt that failed, from 1. */
  attempt: number;
}

/** The kind of a failure, as run summaries count them. */
export function errorKind(error: MedbenchError): string {
  if (error.status !== undefined) return `HTTP ${error.status}`;
  const kinds: Partial<Record<MedbenchError['code'], string>> = {
    ENDPOINT_TIMEOUT: 'timeout',
    ENDPOINT_DISCONNECTED: 'connection closed mid-answer',
    ENDPOINT_BAD_RESPONSE: 'malformed answer',
    ENDPOINT_UNREACHABLE: 'unreachable',
  };
  return kinds[error.code] ?? error.code;
}

export interface RunSamplesOptions {
  store: Store;
  run: RunRecord;
  samples: readonly Sample[];
  tasks: Readonly<Record<string, Task>>;
  model: ModelBinding;
  retry: RetryPolicy;
  /** Per request. */
  timeoutMs: number;
  /** Per sample, every attempt and wait included (default: no limit beyond the retries). */
  sampleTimeoutMs?: number;
  /** Stop (as a graceful stop does) at the first sample that ends in an error. */
  failFast?: boolean;
  /** Graceful stop: no new requests; in-flight ones finish and are kept. */
  stopSignal?: AbortSignal;
  /** Hard stop: in-flight requests are cancelled and not recorded. */
  abortSignal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  onRetry?: (event: RetryEvent) => void;
  /** Applied to every error text before it is stored (the CLI takes out every key it read). */
  redact?: (text: string) => string;
  /** Shared with other processes on the same home: each request is sent by one of them only. */
  claims?: RequestClaims;
}

/** How often a sample whose request another process holds looks for that process's answer. */
const CLAIM_POLL_MS = 200;

/** Digest of a conversation: roles and texts, hashed as they are (no JSON copy of long prompts). */
export function messagesDigest(messages: readonly ChatMessage[]): string {
  const hash = createHash('sha256');
  for (const message of messages) {
    hash.update(`\u0000${message.role}\u0000${message.content.length}\u0000`);
    hash.update(message.content);
  }
  return hash.digest('hex');
}

/**
 * Cache key of one request: everything that can change the answer — the adapter (provider and
 * API), the endpoint that answers (its identity, never a key), the model, every generation
 * parameter and the messages. The same model name on another server is another key.
 */
export function responseCacheKey(options: {
  provider: string;
  endpoint: string;
  modelId: string;
  parameters: unknown;
  messagesDigest: string;
}): string {
  return createHash('sha256')
    .update(
      canonicalJson({
        version: 3,
        provider: options.provider,
        endpoint: options.endpoint,
        modelId: options.modelId,
        parameters: options.parameters,
        messages: options.messagesDigest,
      }),
    )
    .digest('hex');
}

/**
 * Every sample names a task of the suite and carries the gold data that task scores against:
 * checked before anything is sent, so a damaged dataset file costs no model call.
 */
export function checkSamples(
  samples: readonly Sample[],
  tasks: Readonly<Record<string, Task>>,
  suite: string,
): void {
  for (const sample of samples) {
    const task = tasks[sample.task];
    if (!task) {
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `Sample ${sample.id} has task "${sample.task}", which the ${suite} suite does not define.`,
      });
    }
    const gold = task.gold.safeParse(sample.gold);
    if (!gold.success) {
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `Sample ${sample.id}: its gold data is not what the ${suite} task "${sample.task}" scores against (${gold.error.message.replace(/\s+/g, ' ').slice(0, 300)}).`,
        hint: "Rebuild the dataset file with medbench; gold data edited by hand must keep the builder's shape.",
      });
    }
  }
}

/**
 * Runs samples against a model and stores every result. Re-running the same run does only
 * the samples it lacks (errors are retried); identical requests are answered from the
 * response cache. Nothing is written before the first model response succeeds, so a run
 * that fails at once on credentials or reachability leaves the store unchanged.
 */
export async function runSamples(options: RunSamplesOptions): Promise<RunSummary> {
  const { store, run, model, tasks } = options;
  const existing = store.getRun(run.id);
  const finished = existing ? store.finishedSampleIds(run.id) : new Set<string>();
  const pending = options.samples.filter((sample) => !finished.has(sample.id));
  const progress: RunProgress = {
    total: options.samples.length,
    alreadyDone: options.samples.length - pending.length,
    done: 0,
    cached: 0,
    tooLong: 0,
    errors: 0,
    errorKinds: {},
    errorExamples: {},
    inputTokens: 0,
    outputTokens: 0,
    cost: 0,
    startedAt: Date.now(),
  };
  checkSamples(pending, tasks, run.suite);

  const hardStop = new AbortController();
  // One abort listener per request in flight: more than the default warning threshold.
  setMaxListeners(0, hardStop.signal);
  // Any stop ends the waits between retries at once (a long Retry-After must not hold Ctrl-C up);
  // only a hard stop cancels requests in flight.
  const waitsEnd = new AbortController();
  setMaxListeners(0, waitsEnd.signal);
  const endWaits = () => waitsEnd.abort();
  hardStop.signal.addEventListener('abort', endWaits, { once: true });
  options.stopSignal?.addEventListener('abort', endWaits, { once: true });
  if (options.stopSignal?.aborted) endWaits();
  let failedFast: MedbenchError | undefined;
  const { claims } = options;
  const endpointGroup = [...new Set(model.endpoints.map((entry) => entry.model.endpoint))].sort().join(' ');
  // Claims lapse unless renewed: renewed while this runner works, so only a dead process's lapse.
  const renewal = claims ? setInterval(() => claims.renew(), CLAIM_LEASE_MS / 3) : undefined;
  renewal?.unref();
  // A fresh answer is committed at once, synchronously, in the same turn of the event loop in
  // which it arrived, before it is even scored (its prompt was hashed and compressed before the
  // request went out), so a kill -9 can lose only answers still on the wire and a re-run never
  // pays for one twice; its result follows as soon as it is scored, before the sample counts as
  // done. Results that cost nothing to redo (cache hits, too_long, errors) are committed in
  // groups: at most GROUP_COMMIT_MS later, or at once when GROUP_COMMIT_MAX are waiting.
  const queue: Array<() => void> = [];
  let flushTimer: NodeJS.Timeout | undefined;
  let writeError: unknown;
  const writeNow = (work: () => void) => {
    try {
      store.transaction(work);
    } catch (error) {
      writeError ??= error;
      hardStop.abort();
    }
  };
  const flushQueue = () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    const batch = queue.splice(0);
    if (batch.length > 0)
      writeNow(() => {
        for (const work of batch) work();
      });
  };
  const later = (work: () => void) => {
    queue.push(work);
    if (queue.length >= GROUP_COMMIT_MAX) flushQueue();
    else flushTimer ??= setTimeout(flushQueue, GROUP_COMMIT_MS);
  };

  // Writes wait until the first successful response (or the end of a run that needs none).
  let committed = existing !== undefined;
  const buffered: ResultRecord[] = [];
  /** Commits a fresh answer to the response cache (with the run and what waited, the first time). */
  const keepAnswer = (putInCache: () => void): void => {
    if (committed) {
      writeNow(putInCache);
      return;
    }
    committed = true;
    const items = buffered.splice(0);
    writeNow(() => {
      store.ensureRun(run);
      putInCache();
      for (const item of items) store.putResult(item);
    });
  };
  /** `answered`: the result of a fresh answer, committed now; others may wait for a group. */
  const write = (result: ResultRecord, answered = false): void => {
    if (!committed) buffered.push(result);
    else if (answered) writeNow(() => store.putResult(result));
    else later(() => store.putResult(result));
  };
  const flush = () => {
    flushQueue();
    if (committed || buffered.length === 0) return;
    store.transaction(() => {
      store.ensureRun(run);
      for (const item of buffered) store.putResult(item);
    });
    buffered.length = 0;
    committed = true;
  };

  const onAbort = () => hardStop.abort();
  options.abortSignal?.addEventListener('abort', onAbort, { once: true });
  let fatal: MedbenchError | undefined;
  let next = 0;
  const stopped = () => waitsEnd.signal.aborted;

  const baseResult = (
    sample: Sample,
    promptTokens: number | null,
    prompt: ResultRecord['prompt'] = sample.prompt,
  ) => ({
    runId: run.id,
    sampleId: sample.id,
    task: sample.task,
    params: sample.params,
    gold: sample.gold,
    prompt,
    promptChars: sample.promptChars,
    promptTokens,
  });

  // One controller and timer per attempt: cheaper than AbortSignal.any + AbortSignal.timeout.
  const generateWithTimeout = async (
    endpoint: ChatModel,
    messages: ChatMessage[],
    generation: Pick<ChatRequest, 'parameters' | 'truncatePromptTokens'>,
    timeoutMs: number,
  ) => {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('The request timed out.', 'TimeoutError')),
      Math.max(1, timeoutMs),
    );
    const onHardStop = () => controller.abort(hardStop.signal.reason);
    hardStop.signal.addEventListener('abort', onHardStop, { once: true });
    try {
      return await endpoint.generate({ messages, ...generation, signal: controller.signal });
    } finally {
      clearTimeout(timer);
      hardStop.signal.removeEventListener('abort', onHardStop);
    }
  };

  /** The record of a sample that got no answer: wrong and counted, with the reason. */
  const failedResult = (failure: {
    sample: Sample;
    promptTokens: number | null;
    status: 'too_long' | 'error';
    error: string;
    latencyMs: number | null;
    attempts: number;
  }): ResultRecord => ({
    ...baseResult(failure.sample, failure.promptTokens),
    status: failure.status,
    rawOutput: null,
    parsed: null,
    scores: tasks[failure.sample.task]!.failedScores(failure.sample),
    inputTokens: null,
    outputTokens: null,
    cost: null,
    latencyMs: failure.latencyMs,
    attempts: failure.attempts,
    cacheHit: false,
    error: options.redact ? options.redact(failure.error) : failure.error,
  });

  /** Runs one sample; false when it was left for the next run (stopped, or a fatal error). */
  const processSample = async (sample: Sample, endpoint: ChatModel): Promise<boolean> => {
    const task = tasks[sample.task]!;
    const tokenizerName = model.tokenizer?.name;
    const messages: ChatMessage[] = sample.messages ?? [{ role: 'user', content: sample.prompt }];
    let promptTokens: number | null = null;
    if (tokenizerName) {
      promptTokens = sample.promptTokens[tokenizerName] ?? null;
      if (promptTokens === null) {
        promptTokens = 0;
        for (const message of messages)
          promptTokens += await countTokensYielding(model.tokenizer!, message.content);
      }
    }
    const parameters = {
      ...model.parameters,
      ...(sample.generation?.maxOutputTokens !== undefined
        ? { maxOutputTokens: sample.generation.maxOutputTokens }
        : {}),
    };
    // A sample that asks for server-side truncation, on an endpoint that does it, is sent as it is.
    const truncatePromptTokens =
      sample.generation?.truncatePromptTokens !== undefined && endpoint.capabilities?.truncatePrompt
        ? sample.generation.truncatePromptTokens
        : undefined;
    if (
      truncatePromptTokens === undefined &&
      model.contextWindow !== undefined &&
      promptTokens !== null &&
      promptTokens > model.contextWindow
    ) {
      write(
        failedResult({
          sample,
          promptTokens,
          status: 'too_long',
          error: `prompt has ${promptTokens} ${tokenizerName} tokens; the window is ${model.contextWindow}`,
          latencyMs: null,
          attempts: 0,
        }),
      );
      progress.tooLong++;
      return true;
    }
    // A binding's endpoints serve one model: an answer any of them gave is this request's answer;
    // a fresh one is stored under the endpoint that gave it.
    const requestParameters =
      truncatePromptTokens === undefined ? parameters : { ...parameters, truncatePromptTokens };
    const digest = messagesDigest(messages);
    const keyFor = (chat: ChatModel) =>
      responseCacheKey({
        provider: chat.provider,
        endpoint: chat.endpoint,
        modelId: chat.modelId,
        parameters: requestParameters,
        messagesDigest: digest,
      });
    const cacheKey = keyFor(endpoint);
    const lookUp = () => {
      let found = store.getCachedResponse(cacheKey);
      for (const other of model.endpoints) {
        if (found) break;
        if (other.model !== endpoint) found = store.getCachedResponse(keyFor(other.model));
      }
      return found;
    };
    const started = Date.now();
    const deadline = options.sampleTimeoutMs !== undefined ? started + options.sampleTimeoutMs : undefined;
    let cached = lookUp();
    // Another process running the same requests (the same binding: claims name every endpoint of
    // it) may be asking already: wait for its answer rather than pay for it twice.
    const claimKey = claims
      ? responseCacheKey({
          provider: endpoint.provider,
          endpoint: endpointGroup,
          modelId: endpoint.modelId,
          parameters: requestParameters,
          messagesDigest: digest,
        })
      : undefined;
    let claimed = false;
    while (!cached && claims && claimKey) {
      if (claims.take(claimKey)) {
        // Taken: an answer stored before the other process let go is in the cache now.
        cached = lookUp();
        if (cached) claims.release(claimKey);
        else claimed = true;
        break;
      }
      if (deadline !== undefined && Date.now() >= deadline) break;
      try {
        await sleep(CLAIM_POLL_MS, waitsEnd.signal);
      } catch {
        return false; // stopped while waiting: the next run does this sample
      }
      cached = lookUp();
    }
    const releaseClaim = () => {
      if (claimed && claims && claimKey) claims.release(claimKey);
      claimed = false;
    };
    // Hashed and compressed now, so the commit when the answer arrives is only the inserts.
    const prompt = cached ? sample.prompt : await preparePromptAsync(sample.prompt);
    let text: string;
    let inputTokens: number | null;
    let outputTokens: number | null;
    let attempts = 0;
    if (cached) {
      ({ text, inputTokens, outputTokens } = cached);
      progress.cached++;
    } else {
      const outcome = await retrying({
        policy: options.retry,
        signal: waitsEnd.signal,
        ...(deadline !== undefined ? { deadline } : {}),
        attempt: (_, timeLeftMs) =>
          generateWithTimeout(
            endpoint,
            messages,
            {
              parameters,
              ...(truncatePromptTokens !== undefined ? { truncatePromptTokens } : {}),
            },
            Math.min(options.timeoutMs, timeLeftMs),
          ),
        onRetry: (error, delayMs, attemptNumber) =>
          options.onRetry?.({ sampleId: sample.id, error, delayMs, attempt: attemptNumber + 1 }),
      });
      if (!outcome.ok) {
        releaseClaim();
        const { error } = outcome;
        // Stopped: not recorded; the next run does this sample.
        if (outcome.stopped || error.code === 'ABORTED' || hardStop.signal.aborted) return false;
        if (isFatalForRun(error) || error.status === 404) {
          fatal ??= error;
          hardStop.abort();
          return false;
        }
        const tries = outcome.attempts === 1 ? '1 attempt' : `${outcome.attempts} attempts`;
        write(
          failedResult({
            sample,
            promptTokens,
            status: 'error',
            error: `${error.message} (${tries} in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
            latencyMs: Date.now() - started,
            attempts: outcome.attempts,
          }),
        );
        progress.errors++;
        const kind = errorKind(error);
        progress.errorKinds[kind] = (progress.errorKinds[kind] ?? 0) + 1;
        progress.errorExamples[kind] ??= options.redact ? options.redact(error.message) : error.message;
        if (options.failFast && !failedFast) {
          failedFast = error;
          endWaits();
        }
        return true;
      }
      attempts = outcome.attempts;
      text = outcome.value.text;
      inputTokens = outcome.value.usage?.inputTokens ?? promptTokens;
      outputTokens = outcome.value.usage?.outputTokens ?? model.tokenizer?.count(text) ?? null;
      const response = { text, inputTokens, outputTokens, finishReason: outcome.value.finishReason ?? null };
      keepAnswer(() =>
        store.putCachedResponse({ cacheKey, provider: model.provider, modelId: model.modelId, response }),
      );
      releaseClaim();
    }
    const cost =
      model.prices && !cached
        ? ((inputTokens ?? 0) * model.prices.inputPerMillion +
            (outputTokens ?? 0) * model.prices.outputPerMillion) /
          1e6
        : 0;
    const scored = task.score({ sample, rawOutput: text, mode: run.scoringMode });
    write(
      {
        ...baseResult(sample, promptTokens, prompt),
        status: scored.status,
        rawOutput: text,
        parsed: scored.parsed,
        scores: scored.scores,
        inputTokens,
        outputTokens,
        cost: cached ? 0 : cost,
        latencyMs: cached ? 0 : Date.now() - started,
        attempts,
        cacheHit: cached !== undefined,
        error: null,
      },
      !cached,
    );
    if (!cached) {
      progress.inputTokens += inputTokens ?? 0;
      progress.outputTokens += outputTokens ?? 0;
      progress.cost += cost;
    }
    return true;
  };

  const worker = async (endpoint: ChatModel) => {
    while (!stopped() && next < pending.length) {
      const sample = pending[next++]!;
      const finished = await processSample(sample, endpoint);
      if (finished && !hardStop.signal.aborted) {
        progress.done++;
        options.onProgress?.({ ...progress });
      }
    }
  };

  // One worker per concurrency slot; slots interleaved across endpoints (round-robin).
  const slots: ChatModel[] = [];
  const largest = Math.max(0, ...model.endpoints.map((endpoint) => endpoint.concurrency));
  for (let round = 0; round < largest; round++) {
    for (const endpoint of model.endpoints) if (round < endpoint.concurrency) slots.push(endpoint.model);
  }
  try {
    await Promise.all(slots.map(worker));
  } finally {
    options.abortSignal?.removeEventListener('abort', onAbort);
    hardStop.signal.removeEventListener('abort', endWaits);
    options.stopSignal?.removeEventListener('abort', endWaits);
    if (renewal) clearInterval(renewal);
    // Requests cancelled or left: another process (or the next run) may send them at once.
    claims?.releaseAll();
    if (fatal === undefined) flush();
    else flushQueue(); // keep what was committed-to before the fatal error, never the buffer
  }
  if (writeError) {
    throw new MedbenchError({
      code: 'STORE_ERROR',
      message: `Could not write results to ${store.path}: ${(writeError as Error).message}`,
      hint: 'Check free disk space and permissions; re-run the same command to finish.',
      cause: writeError,
    });
  }
  if (fatal) throw fatal;
  return { ...progress, interrupted: progress.done < pending.length, failedFast };
}
