import type { ChatModel } from '../core/chat-model.js';
import { failsWholeEndpoint, MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { Sample } from '../core/sample.js';
import type { Task } from '../core/task.js';
import type { RequestClaims } from '../store/request-claims.js';
import type { ResultRecord, Store } from '../store/store.js';
import { answerSample, type RetryEvent, type RunProgress, type SampleRun } from './answer-sample.js';
import { AnswerCache } from './cached-answer.js';
import { costBudgetFor } from './cost-budget.js';
import { EndpointHealth } from './endpoint-health.js';
import { type ExplicitCacheCosts, ExplicitCaches } from './explicit-caches.js';
import type { ModelBinding } from './model-binding.js';
import { PrefixRuns } from './prefix-order.js';
import { promptCacheHints } from './prompt-cache-hints.js';
import { redactedText } from './redact-result.js';
import { ResultWriter } from './result-writer.js';
import type { RetryPolicy } from './retry.js';
import { RunControl } from './run-control.js';
import { SlotTurn } from './slot-turn.js';
import { StoreWriterThread } from './store-writer-thread.js';

export { errorKind, type RetryEvent, type RunProgress } from './answer-sample.js';
export { messagesDigest, responseCacheKey } from './response-cache-key.js';

export interface RunSummary extends RunProgress {
  /** True when a stop request (or --fail-fast) ended the run before every sample was done. */
  interrupted: boolean;
  /** The failure that ended the run early under `failFast`. */
  failedFast: MedbenchError | undefined;
  /** True when --max-cost held a request back (the run stopped there). */
  costCapReached: boolean;
  /** What a sample without an answer means for the scores, when not "counted as wrong" (a judge's: left out of its jury). */
  errorMeaning?: string;
  /** Gemini's explicit caches the run made: billed apart from the answers, not in `cost`. */
  explicitCaches?: ExplicitCacheCosts;
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
  /**
   * Applied to every text an endpoint sends before it is scored or stored, answers and errors
   * alike (the CLI takes out every key and header secret it read).
   */
  redact?: (text: string) => string;
  /** Shared with other processes on the same home: each request is sent by one of them only. */
  claims?: RequestClaims;
  /**
   * --redact: results keep hashes and lengths instead of prompt, output and gold text, error texts
   * are not kept, and answers are not written to the response cache.
   */
  redactText?: boolean;
  /** Each result as the run made it, before --redact takes its text out (generate keeps its answers in memory). */
  onResult?: (result: ResultRecord) => void;
  /**
   * A spending cap (currency of the model's prices, which it needs): a request that might pass it
   * is not sent, and the run stops there, resumable (`RunSummary.costCapReached`).
   */
  maxCost?: number;
  /**
   * With several endpoints: those found down before the run (unreachable at the check); they rest
   * from the start while the others take the samples.
   */
  downAtStart?: ReadonlyArray<{ model: ChatModel; error: MedbenchError }>;
  /**
   * `run --batch`: the cache keys this run's provider batches answered. A sample answered from
   * the cache under one of them is the run's own paid answer (at the batch price), not a cache hit.
   */
  batchAnswers?: ReadonlySet<string>;
  /** With several endpoints: one failed as a whole and rests while the others take its samples. */
  onEndpointDown?: (event: { endpoint: string; error: MedbenchError; restMs: number }) => void;
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
 * The samples left to answer, first those an endpoint failed on, then each slot's own run of the
 * prefix order (`PrefixRuns`), and how many are being answered.
 */
class SampleQueue {
  private readonly returned: Sample[] = [];
  inFlight = 0;
  health: EndpointHealth | undefined;

  constructor(private readonly pending: PrefixRuns<Sample>) {}

  take(slot: number): Sample | undefined {
    const sample = this.returned.shift() ?? this.pending.take(slot);
    if (sample) this.inFlight++;
    return sample;
  }

  giveBack(sample: Sample): void {
    this.returned.push(sample);
  }

  /** Nothing left to take, and nothing in flight that could come back. */
  empty(): boolean {
    return this.returned.length === 0 && this.pending.left === 0 && this.inFlight === 0;
  }
}

/**
 * Several endpoints: one that fails as a whole (refused, unreachable, no such model, or failing
 * every request with retryable errors until the retries run out) rests and its samples go to the
 * others (no sample is recorded as an error for it, none is answered twice); a sample fails only
 * when no other endpoint serves, and the run stops only when a whole-endpoint failure leaves none.
 */
function failOver(context: SampleRun, queue: SampleQueue, options: RunSamplesOptions): void {
  const health = new EndpointHealth(options.model.endpoints.map((endpoint) => endpoint.model));
  queue.health = health;
  context.triedElsewhere = new Map();
  // Those that failed the check before the run start resting, as if they had failed a sample.
  for (const { model: endpoint, error } of options.downAtStart ?? []) {
    const down = health.markDown(endpoint, error);
    if (down?.began) options.onEndpointDown?.({ endpoint: endpoint.endpoint, error, restMs: down.restMs });
  }
  context.failover = (endpoint, error, sample, sentAt) => {
    // Retries spent while the endpoint answered other requests: it serves, the sample failed.
    if (!failsWholeEndpoint(error) && health.answeredSince(endpoint, sentAt)) return false;
    const down = health.markDown(endpoint, error);
    if (down === undefined) return false;
    queue.giveBack(sample);
    if (down.began) options.onEndpointDown?.({ endpoint: endpoint.endpoint, error, restMs: down.restMs });
    return true;
  };
  context.served = (endpoint) => health.markUp(endpoint);
  context.passOn = (endpoint, sample) => {
    if (health.restLeft(endpoint) <= 0) return false;
    queue.giveBack(sample);
    return true;
  };
}

/**
 * What each concurrency slot runs: takes the next sample (those an endpoint failed on first),
 * answers it on its endpoint, counts it; rests while its endpoint does, and waits for samples in
 * flight elsewhere that may come back before it ends.
 */
function workerOf(
  context: SampleRun,
  queue: SampleQueue,
  options: RunSamplesOptions,
  commits: Commits,
): (endpoint: ChatModel, slot: number, turn?: SlotTurn) => Promise<void> {
  const { uncommitted } = commits;
  return async (endpoint: ChatModel, slot: number, turn?: SlotTurn): Promise<void> => {
    while (!context.control.stopped) {
      const rest = queue.health?.restLeft(endpoint) ?? 0;
      if (rest > 0) {
        // Resting after a failure: the other endpoints take the samples meanwhile.
        if (queue.empty()) break;
        await context.control.pause(Math.min(rest, 250));
        continue;
      }
      const sample = queue.take(slot);
      if (!sample) {
        // Samples still in flight may come back from an endpoint that fails.
        if (queue.inFlight === 0 || !queue.health) break;
        await context.control.pause(20);
        continue;
      }
      let answered: Awaited<ReturnType<typeof answerSample>>;
      try {
        answered = await answerSample(context, sample, endpoint, turn);
      } finally {
        queue.inFlight--;
        context.explicitCaches?.finished(sample);
      }
      if (!answered) continue;
      // Counted once committed; the slot sends its next request meanwhile, unless too many
      // results wait for their commit (a writer thread that cannot keep up slows the run).
      const counted = answered.committed.then(
        (committed) => {
          uncommitted.delete(counted);
          if (!committed || context.control.hardStop.signal.aborted) return;
          context.progress.done++;
          options.onProgress?.({ ...context.progress });
        },
        (error: unknown) => {
          // Scoring threw: the run stops and reports it (never an unhandled rejection).
          uncommitted.delete(counted);
          commits.failure ??= error;
          context.control.hardStop.abort();
        },
      );
      uncommitted.add(counted);
      while (uncommitted.size > MAX_UNCOMMITTED) await Promise.race(uncommitted);
      // Sharing its slot, the worker prepares its next sample after this turn of the loop: the
      // other worker's request, sent as this one's answer was read, is written out first.
      if (turn) await nextTurnOfLoop();
    }
  };
}

const nextTurnOfLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Results handed to the store and not yet committed, past which a slot waits before its next sample. */
const MAX_UNCOMMITTED = 1024;

/** The results of a run on their way to the store, and the first that could not be scored. */
interface Commits {
  uncommitted: Set<Promise<void>>;
  failure: unknown;
}

/** One worker per concurrency slot; slots interleaved across endpoints (round-robin). */
function slotsOf(model: ModelBinding): ChatModel[] {
  const slots: ChatModel[] = [];
  const largest = Math.max(0, ...model.endpoints.map((endpoint) => endpoint.concurrency));
  for (let round = 0; round < largest; round++) {
    for (const endpoint of model.endpoints) if (round < endpoint.concurrency) slots.push(endpoint.model);
  }
  return slots;
}

/**
 * Where each prompt shares its prefix with its neighbours in the walk, for the provider's cache
 * (`promptCacheHints`); and the whole leading messages many share, held by the provider where
 * that pays (Gemini's explicit cache), a killed run's caches taken over or deleted first.
 */
async function usePromptCaches(
  context: SampleRun,
  walk: readonly Sample[],
  pending: readonly Sample[],
): Promise<void> {
  context.promptCache = promptCacheHints(walk);
  context.explicitCaches = ExplicitCaches.plan({
    samples: pending,
    model: context.model,
    records: context.store.explicitCaches,
    runId: context.run.id,
    signal: context.control.hardStop.signal,
    ...(context.budget ? { budget: context.budget } : {}),
  });
  await context.explicitCaches?.start();
}

/** Counts of a run about to start: `pending` of `total` samples left; `priced`: the model has prices. */
export function startProgress(total: number, pending: number, priced = false): RunProgress {
  return {
    total,
    alreadyDone: total - pending,
    done: 0,
    cached: 0,
    tooLong: 0,
    errors: 0,
    errorKinds: {},
    errorExamples: {},
    inputTokens: 0,
    outputTokens: 0,
    cost: priced ? 0 : null,
    startedAt: Date.now(),
  };
}

/** --max-cost needs the model's prices: refused before anything is sent. */
function checkCostCap(model: ModelBinding, maxCost: number | undefined): void {
  if (maxCost !== undefined && !model.prices)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--max-cost needs the prices of ${model.label}: medbench cannot bound the cost of a model it has no prices for.`,
      hint: 'Give the model "prices": { "inputPerMillion": …, "outputPerMillion": … } in medbench.config.json.',
    });
}

/**
 * Runs samples against a model and stores every result: the run's identity (its id) says what
 * is done already, workers schedule the rest (each slot a run of the prefix order, `PrefixRuns`), each answer is scored with the suite's task and
 * written by the run's `ResultWriter`. Re-running the same run does only the samples it lacks
 * (errors are retried); identical requests are answered from the response cache. Nothing is
 * written before the first model response succeeds, so a run that fails at once on credentials
 * or reachability leaves the store unchanged.
 */
export async function runSamples(options: RunSamplesOptions): Promise<RunSummary> {
  const { store, run, model } = options;
  const finished = store.getRun(run.id) ? store.finishedSampleIds(run.id) : new Set<string>();
  const pending = options.samples.filter((sample) => !finished.has(sample.id));
  checkSamples(pending, options.tasks, run.suite);
  checkCostCap(model, options.maxCost);
  const control = new RunControl(options);
  const thread = StoreWriterThread.where(store.path);
  // Started before the first request, so that no answer waits for the thread to start.
  await thread?.ready;
  const writer = new ResultWriter(store, run, {
    deferUntilAnswer: true,
    onFailure: () => control.hardStop.abort(),
    redactText: options.redactText ?? false,
    ...(options.onResult ? { onResult: options.onResult } : {}),
    path: thread,
  });
  const context: SampleRun = {
    store,
    run,
    model,
    tasks: options.tasks,
    retry: options.retry,
    timeoutMs: options.timeoutMs,
    sampleTimeoutMs: options.sampleTimeoutMs,
    failFast: options.failFast ?? false,
    redact: options.redactText ? redactedText : (options.redact ?? ((text) => text)),
    scrubSecrets: options.redact ?? ((text) => text),
    redactText: options.redactText ?? false,
    budget: costBudgetFor(model, options.maxCost),
    onRetry: options.onRetry,
    control,
    writer,
    cache: new AnswerCache(store, model, options.claims, (key) => writer.unconfirmedAnswer(key)),
    progress: startProgress(options.samples.length, pending.length, model.prices !== undefined),
    fatal: undefined,
    failedFast: undefined,
    ...(options.batchAnswers ? { batchAnswers: new Set(options.batchAnswers) } : {}),
  };
  const slots = slotsOf(model);
  // Each slot sends its run of the prefix order back to back, for the endpoint's prefix cache.
  const runs = new PrefixRuns(pending, slots.length);
  if (model.promptCache !== false) await usePromptCaches(context, runs.walk, pending);
  const queue = new SampleQueue(runs);
  if (model.endpoints.length > 1) failOver(context, queue, options);
  const commits: Commits = { uncommitted: new Set(), failure: undefined };
  const worker = workerOf(context, queue, options, commits);
  try {
    await Promise.all(
      slots.flatMap((endpoint, slot) => {
        // Two workers take turns at each slot (SlotTurn), one preparing while the other's request
        // is out; with the endpoint counting tokens, preparing is a request too: one worker.
        if (model.countTokens === 'endpoint') return [worker(endpoint, slot)];
        // A slot let go with no worker waiting: the other's claim is needed now.
        const turn = new SlotTurn(() => context.cache.hurry());
        return [worker(endpoint, slot, turn), worker(endpoint, slot, turn)];
      }),
    );
  } finally {
    await Promise.all(commits.uncommitted);
    await context.explicitCaches?.close();
    control.dispose();
    // A fatal error keeps what was committed before it, never what waited for a first answer.
    await writer.close(context.fatal !== undefined);
    await thread?.close();
    // Claims go last: whatever they covered is in the store by now.
    context.cache.close();
  }
  if (commits.failure !== undefined) throw commits.failure;
  context.writer.throwIfFailed();
  if (context.fatal) throw context.fatal;
  const { progress } = context;
  return {
    ...progress,
    interrupted: progress.done < pending.length,
    failedFast: context.failedFast,
    costCapReached: context.budget?.reached ?? false,
    ...(context.explicitCaches?.spent.made ? { explicitCaches: context.explicitCaches.spent } : {}),
  };
}
