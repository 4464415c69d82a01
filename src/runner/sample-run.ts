import type { ChatModel, PromptCacheHint } from '../core/chat-model.js';
import type { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { Sample } from '../core/sample.js';
import type { Task } from '../core/task.js';
import type { Store } from '../store/store.js';
import type { AnswerCache } from './cached-answer.js';
import type { CostBudget } from './cost-budget.js';
import type { ExplicitCaches } from './explicit-caches.js';
import type { ModelBinding } from './model-binding.js';
import type { ResultWriter } from './result-writer.js';
import type { RetryPolicy } from './retry.js';
import type { RunControl } from './run-control.js';

/** Counts of a run, as progress lines and the summary show them. */
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
  /** What the run paid so far; null when the model has no prices (unknown, not zero). */
  cost: number | null;
  startedAt: number;
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

/** What every sample of one run shares: settings, stops, the writer, the cache, the counts. */
export interface SampleRun {
  store: Store;
  run: RunRecord;
  model: ModelBinding;
  tasks: Readonly<Record<string, Task>>;
  retry: RetryPolicy;
  timeoutMs: number;
  sampleTimeoutMs: number | undefined;
  failFast: boolean;
  redact: (text: string) => string;
  /** Takes the known secret values out of an answer's text (`redact` without --redact's blanking). */
  scrubSecrets: (text: string) => string;
  /** --redact: no answer text goes to the response cache (results are redacted by the writer). */
  redactText: boolean;
  /** --max-cost: a request that might pass the cap is not sent (the run stops, resumable). */
  budget: CostBudget | undefined;
  onRetry: ((event: RetryEvent) => void) | undefined;
  control: RunControl;
  writer: ResultWriter;
  cache: AnswerCache;
  /** Each sample's prompt cache hint (`promptCacheHints`); undefined: `--no-prompt-cache`. */
  promptCache?: ReadonlyMap<Sample, PromptCacheHint>;
  /** The run's explicit prompt caches (Gemini's), where one pays; undefined: none (or `--no-prompt-cache`). */
  explicitCaches?: ExplicitCaches;
  progress: RunProgress;
  /** The error that stops the whole run (401, unreachable, a 404 model). */
  fatal: MedbenchError | undefined;
  /** `run --batch`: cache keys answered by this run's batches, each counted paid once (then taken out). */
  batchAnswers?: Set<string>;
  /**
   * With several endpoints: takes over a sample whose endpoint failed as a whole (it rests and
   * the sample goes to another): refused, unreachable, no such model, or retryable errors until
   * the retries ran out with no answer from that endpoint since the sample was sent (`sentAt`).
   * False when no other endpoint serves, or when the endpoint answered other requests meanwhile
   * (the failure is the sample's own).
   */
  failover?: (endpoint: ChatModel, error: MedbenchError, sample: Sample, sentAt: number) => boolean;
  /**
   * With several endpoints: the attempts a sample was sent on endpoints that then failed as a
   * whole; its record counts them with those of the endpoint that answers it.
   */
  triedElsewhere?: Map<string, number>;
  /** An answer came back from this endpoint. */
  served?: (endpoint: ChatModel) => void;
  /**
   * With several endpoints: gives back a sample prepared for an endpoint that began to rest
   * meanwhile (another takes it); false when the endpoint is not resting.
   */
  passOn?: (endpoint: ChatModel, sample: Sample) => boolean;
  /** The first sample error under --fail-fast. */
  failedFast: MedbenchError | undefined;
}
