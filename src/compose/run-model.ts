import type { BatchProgress } from '../core/batch-client.js';
import { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { Sample } from '../core/sample.js';
import type { Task } from '../core/task.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../runner/retry.js';
import type { ComputedRunSummary } from '../runner/run-computed.js';
import {
  type RetryEvent,
  type RunProgress,
  type RunSamplesOptions,
  type RunSummary,
  runSamples,
} from '../runner/run-samples.js';
import { RequestClaims } from '../store/request-claims.js';
import type { Store } from '../store/store.js';
import type { MedbenchConfig } from './config.js';
import { redactKnownSecrets } from './known-secrets.js';
import { holdForSync } from './model-hold.js';
import { checkBeforeRun } from './probe-endpoints.js';
import { checkRestrictedData, type DataRestriction } from './restricted-data.js';

/** How hard medbench tries per request and per sample; every field has a flag and a config default. */
export interface RetryOptions {
  maxRetries?: number;
  timeoutMs?: number;
  maxRetryWaitMs?: number;
  sampleTimeoutMs?: number;
  failFast?: boolean;
  /** Stop before a request could take the run's cost past this (needs the model's prices). */
  maxCost?: number;
}

const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_SAMPLE_TIMEOUT_MS = 1_800_000;

/** The retry policy of a command: its flags, then the config's defaults, then medbench's. */
export function retryPolicyFrom(
  options: RetryOptions,
  defaults: MedbenchConfig['defaults'] = {},
): RetryPolicy {
  return {
    ...DEFAULT_RETRY_POLICY,
    maxRetries: options.maxRetries ?? defaults.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    maxRetryAfterMs:
      options.maxRetryWaitMs ?? defaults.maxRetryWaitMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs,
  };
}

/**
 * What the caller (a terminal, a notebook, a service) sees of a run and how it stops it. The
 * run itself never prints and never touches the process's signals.
 */
export interface RunHooks {
  /** Graceful stop: no new requests; in-flight ones finish and are kept. */
  stopSignal?: AbortSignal;
  /** Hard stop: in-flight requests are cancelled and not recorded. */
  abortSignal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  /** A retry about to wait; `policy` says how long an unreachable endpoint is tried. */
  onRetry?: (event: RetryEvent, policy: RetryPolicy) => void;
  /** Progress of a computation that calls no chat model (embedding, ranking). */
  onStage?: (stage: string, done: number, total: number) => void;
  /** `run --batch`: a provider batch being waited for (its state, counts, time so far). */
  onBatch?: (progress: BatchProgress) => void;
  /** A line worth telling the user before or during the run (what runs, a warning). */
  onNotice?: (text: string) => void;
  /** The end of a model run: its counts, errors by kind, and whether it was stopped. */
  onSummary?: (summary: RunSummary) => void;
  /** The end of a computed run (a baseline, a retriever). */
  onComputed?: (summary: ComputedRunSummary & { seconds: number; detail: string }) => void;
  /** The suite's text report of the finished run. */
  onReport?: (text: string) => void;
}

/**
 * Runs samples on a model with the config's defaults, shared request claims (other processes on
 * the same home send each request once) and every key the process read kept out of what is stored.
 * Restricted samples go to approved endpoints only: anything else is refused before the first request.
 */
export async function runModel(options: {
  store: Store;
  run: RunRecord;
  samples: readonly Sample[];
  tasks: Readonly<Record<string, Task>>;
  model: ModelBinding;
  retry: RetryOptions;
  defaults?: MedbenchConfig['defaults'];
  hooks?: RunHooks;
  /** The samples' text may only go to endpoints approved for restricted data (checked first). */
  restricted?: DataRestriction;
  /** --redact: no prompt, output, gold or error text is stored (hashes and lengths instead). */
  redactText?: boolean;
  /** Each result as the run made it, before --redact takes its text out. */
  onResult?: RunSamplesOptions['onResult'];
  /** `run --batch`: the cache keys this run's batches answered (paid, at the batch price). */
  batchAnswers?: ReadonlySet<string>;
}): Promise<RunSummary> {
  checkRestrictedData(options.model, options.restricted);
  const claims = RequestClaims.beside(options.store.path);
  try {
    // Not while another process submits this model's batches; a batched run's own pass here
    // sends nothing (its binding answers from the response cache), and it holds the model already.
    if (!options.batchAnswers) holdForSync(claims, options.model);
    return await sendSamples(options, claims);
  } finally {
    // The hold too (a process that runs again, e.g. a notebook, is not kept waiting by its own).
    claims.releaseAll();
    claims.close();
  }
}

/** `runModel`'s samples through `runSamples`, with its request claims. */
async function sendSamples(
  options: Parameters<typeof runModel>[0],
  claims: RequestClaims,
): Promise<RunSummary> {
  // Only when something is left to send: a finished run resumes without its server.
  const finished = options.store.finishedSampleIds(options.run.id);
  const { downAtStart, unreachable } = options.samples.some((sample) => !finished.has(sample.id))
    ? await checkBeforeRun(options.model, {
        signal: options.hooks?.abortSignal,
        onNotice: options.hooks?.onNotice,
      })
    : { downAtStart: [] };
  const defaults = options.defaults ?? {};
  const hooks = options.hooks ?? {};
  // Unreachable at the check: the first request that needs the server fails at once, with the check's error.
  const policy = {
    ...retryPolicyFrom(options.retry, defaults),
    ...(unreachable ? { unreachableMs: 0 } : {}),
  };
  try {
    return await runSamples({
      store: options.store,
      run: options.run,
      samples: options.samples,
      tasks: options.tasks,
      model: options.model,
      retry: policy,
      timeoutMs: options.retry.timeoutMs ?? defaults.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      sampleTimeoutMs: options.retry.sampleTimeoutMs ?? defaults.sampleTimeoutMs ?? DEFAULT_SAMPLE_TIMEOUT_MS,
      failFast: options.retry.failFast ?? false,
      ...(options.retry.maxCost !== undefined ? { maxCost: options.retry.maxCost } : {}),
      ...(hooks.stopSignal ? { stopSignal: hooks.stopSignal } : {}),
      ...(hooks.abortSignal ? { abortSignal: hooks.abortSignal } : {}),
      ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
      onRetry: (event) => hooks.onRetry?.(event, policy),
      downAtStart,
      onEndpointDown: ({ endpoint, error, restMs }) =>
        hooks.onNotice?.(
          `warning: ${endpoint} failed (${redactKnownSecrets(error.message)}); its samples go to the other endpoints, and it is tried again in ${Math.round(restMs / 1000)} s.`,
        ),
      redact: redactKnownSecrets,
      claims,
      redactText: options.redactText ?? false,
      ...(options.onResult ? { onResult: options.onResult } : {}),
      ...(options.batchAnswers ? { batchAnswers: options.batchAnswers } : {}),
    });
  } catch (error) {
    throw unreachable && MedbenchError.is(error) && error.code === 'ENDPOINT_UNREACHABLE'
      ? unreachable
      : error;
  }
}
