import type { ChatMessage, ChatModel } from '../core/chat-model.js';
import { isFatalForRun, MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { Sample } from '../core/sample.js';
import type { Task } from '../core/task.js';
import { type CachedResponse, type PreparedPrompt, preparePromptAsync, type Store } from '../store/store.js';
import type { AnswerCache } from './cached-answer.js';
import type { CostBudget } from './cost-budget.js';
import type { ModelBinding } from './model-binding.js';
import { resultRecord } from './result-columns.js';
import type { ResultWriter } from './result-writer.js';
import { type RetryPolicy, retrying, withRetry } from './retry.js';
import type { RunControl } from './run-control.js';
import { type SampleRequest, sampleRequest } from './sample-request.js';

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
  cost: number;
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
  /** --redact: no answer text goes to the response cache (results are redacted by the writer). */
  redactText: boolean;
  /** --max-cost: a request that might pass the cap is not sent (the run stops, resumable). */
  budget: CostBudget | undefined;
  onRetry: ((event: RetryEvent) => void) | undefined;
  control: RunControl;
  writer: ResultWriter;
  cache: AnswerCache;
  progress: RunProgress;
  /** The error that stops the whole run (401, unreachable, a 404 model). */
  fatal: MedbenchError | undefined;
  /**
   * With several endpoints: takes over a sample whose endpoint failed as a whole (it rests and
   * the sample goes to another); false when no other endpoint serves.
   */
  failover?: (endpoint: ChatModel, error: MedbenchError, sample: Sample) => boolean;
  /** An answer came back from this endpoint. */
  served?: (endpoint: ChatModel) => void;
  /** The first sample error under --fail-fast. */
  failedFast: MedbenchError | undefined;
}

/** The record of a sample that got no answer: wrong and counted, with the reason. */
function writeFailure(
  context: SampleRun,
  sample: Sample,
  failure: {
    promptTokens: number | null;
    status: 'too_long' | 'error';
    error: string;
    latencyMs: number | null;
    attempts: number;
  },
): void {
  context.writer.write(
    resultRecord({
      runId: context.run.id,
      sample,
      prompt: sample.prompt,
      promptTokens: failure.promptTokens,
      outcome: {
        status: failure.status,
        rawOutput: null,
        parsed: null,
        scores: context.tasks[sample.task]!.failedScores(sample),
      },
      usage: {
        inputTokens: null,
        outputTokens: null,
        cost: null,
        latencyMs: failure.latencyMs,
        attempts: failure.attempts,
        cacheHit: false,
        error: context.redact(failure.error),
      },
    }),
  );
}

/** A sample whose retries are spent: stored as an error and counted by kind; the run goes on. */
function recordError(
  context: SampleRun,
  sample: Sample,
  request: SampleRequest,
  error: MedbenchError,
  attempts: number,
  started: number,
) {
  const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
  writeFailure(context, sample, {
    promptTokens: request.promptTokens,
    status: 'error',
    error: `${error.message} (${tries} in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    latencyMs: Date.now() - started,
    attempts,
  });
  const { progress } = context;
  progress.errors++;
  const kind = errorKind(error);
  progress.errorKinds[kind] = (progress.errorKinds[kind] ?? 0) + 1;
  progress.errorExamples[kind] ??= context.redact(error.message);
  if (context.failFast && !context.failedFast) {
    context.failedFast = error;
    context.control.stop();
  }
}

/** An answer to score: from the cache, or fresh (already committed to the response cache). */
interface Answer {
  response: CachedResponse;
  fresh: boolean;
  attempts: number;
  prompt: string | PreparedPrompt;
}

/**
 * Asks the model, retrying what can be retried; commits a fresh answer to the response cache the
 * moment it arrives. `undefined`: no answer (an error stored, or the sample left for the next run).
 */
async function askModel(
  context: SampleRun,
  sample: Sample,
  endpoint: ChatModel,
  request: SampleRequest,
  started: number,
): Promise<Answer | 'left' | 'failed'> {
  const deadline = context.sampleTimeoutMs !== undefined ? started + context.sampleTimeoutMs : undefined;
  const { control } = context;
  const found = await context.cache.findOrClaim(endpoint, request, {
    deadline,
    signal: control.waitsEnd.signal,
  });
  if (!found) return 'left';
  if (found.cached) return { response: found.cached, fresh: false, attempts: 0, prompt: sample.prompt };
  const bound = context.budget?.bound(request) ?? 0;
  if (context.budget && !context.budget.reserve(bound)) {
    // Held back: the run stops as a graceful stop does, and a re-run with a higher cap goes on.
    found.release();
    control.stop();
    return 'left';
  }
  try {
    return await sendAndKeep(context, {
      sample,
      endpoint,
      request,
      release: found.release,
      deadline,
      started,
    });
  } finally {
    context.budget?.release(bound);
  }
}

/** Sends a request (with retries) and hands a fresh answer back uncommitted; see `askModel`. */
async function sendAndKeep(
  context: SampleRun,
  send: {
    sample: Sample;
    endpoint: ChatModel;
    request: SampleRequest;
    release: () => void;
    deadline: number | undefined;
    started: number;
  },
): Promise<Answer | 'left' | 'failed'> {
  const { control, model } = context;
  const { sample, endpoint, request, release, deadline, started } = send;
  // Hashed and compressed now, so the commit when the answer arrives is only the inserts.
  const prompt = await preparePromptAsync(sample.prompt);
  const generation = {
    messages: request.messages,
    parameters: request.parameters,
    ...(request.truncatePromptTokens !== undefined
      ? { truncatePromptTokens: request.truncatePromptTokens }
      : {}),
  };
  const outcome = await retrying({
    policy: context.retry,
    signal: control.waitsEnd.signal,
    ...(deadline !== undefined ? { deadline } : {}),
    attempt: (_, timeLeftMs) =>
      control.generate(endpoint, generation, Math.min(context.timeoutMs, timeLeftMs)),
    onRetry: (error, delayMs, attemptNumber) =>
      context.onRetry?.({ sampleId: sample.id, error, delayMs, attempt: attemptNumber + 1 }),
  });
  if (!outcome.ok) {
    release();
    const { error } = outcome;
    // Stopped: not recorded; the next run does this sample.
    if (outcome.stopped || error.code === 'ABORTED' || control.hardStop.signal.aborted) return 'left';
    if (isFatalForRun(error) || error.status === 404) {
      // Another endpoint of the model may answer it: not an error of the sample.
      if (context.failover?.(endpoint, error, sample)) return 'left';
      context.fatal ??= error;
      control.hardStop.abort();
      return 'left';
    }
    recordError(context, sample, request, error, outcome.attempts, started);
    return 'failed';
  }
  context.served?.(endpoint);
  const { text } = outcome.value;
  const response: CachedResponse = {
    text,
    inputTokens: outcome.value.usage?.inputTokens ?? request.promptTokens,
    outputTokens: outcome.value.usage?.outputTokens ?? model.tokenizer?.count(text) ?? null,
    finishReason: outcome.value.finishReason ?? null,
  };
  const cacheKey = context.cache.keyFor(endpoint, request);
  context.writer.keepAnswer(() => {
    if (!context.redactText)
      context.store.putCachedResponse({
        cacheKey,
        provider: model.provider,
        modelId: model.modelId,
        response,
      });
  });
  context.budget?.spend(costOf(model, response));
  release();
  return { response, fresh: true, attempts: outcome.attempts, prompt };
}

/** The price of a fresh answer (a cached one cost nothing this time). */
function costOf(model: ModelBinding, response: CachedResponse): number {
  if (!model.prices) return 0;
  return (
    ((response.inputTokens ?? 0) * model.prices.inputPerMillion +
      (response.outputTokens ?? 0) * model.prices.outputPerMillion) /
    1e6
  );
}

/** `--count-tokens endpoint`: the endpoint's own count, retried as requests are; else undefined. */
function endpointCounter(
  context: SampleRun,
  endpoint: ChatModel,
): ((messages: ChatMessage[]) => Promise<number>) | undefined {
  const count = endpoint.countTokens?.bind(endpoint);
  if (context.model.countTokens !== 'endpoint' || !count) return undefined;
  return async (messages) =>
    (
      await withRetry({
        policy: context.retry,
        signal: context.control.waitsEnd.signal,
        attempt: () =>
          count(
            messages,
            AbortSignal.any([AbortSignal.timeout(context.timeoutMs), context.control.hardStop.signal]),
          ),
      })
    ).value;
}

/**
 * Runs one sample on one endpoint: too_long gating, the cache, the request, scoring, the write.
 * False when it was left for the next run (stopped, or a fatal error).
 */
export async function answerSample(
  context: SampleRun,
  sample: Sample,
  endpoint: ChatModel,
): Promise<boolean> {
  const { model, progress } = context;
  let request: SampleRequest;
  try {
    request = await sampleRequest(sample, endpoint, model, endpointCounter(context, endpoint));
  } catch (caught) {
    // The count route failed after its retries: the run cannot judge too_long as asked.
    if (!MedbenchError.is(caught)) throw caught;
    // Stopped meanwhile: the sample is left for the next run.
    if (context.control.stopped || caught.code === 'ABORTED') return false;
    context.fatal ??= caught;
    context.control.hardStop.abort();
    return false;
  }
  if (request.tooLong !== undefined) {
    writeFailure(context, sample, {
      promptTokens: request.promptTokens,
      status: 'too_long',
      error: request.tooLong,
      latencyMs: null,
      attempts: 0,
    });
    progress.tooLong++;
    return true;
  }
  const started = Date.now();
  const answer = await askModel(context, sample, endpoint, request, started);
  if (answer === 'left') return false;
  if (answer === 'failed') return true;
  const { response, fresh } = answer;
  const cost = fresh ? costOf(model, response) : 0;
  const scored = context.tasks[sample.task]!.score({
    sample,
    rawOutput: response.text,
    mode: context.run.scoringMode,
  });
  context.writer.write(
    resultRecord({
      runId: context.run.id,
      sample,
      prompt: answer.prompt,
      promptTokens: request.promptTokens,
      outcome: {
        status: scored.status,
        rawOutput: response.text,
        parsed: scored.parsed,
        scores: scored.scores,
      },
      usage: {
        inputTokens: response.inputTokens,
        outputTokens: response.outputTokens,
        // Without prices the cost is unknown, not zero.
        cost: model.prices ? cost : null,
        latencyMs: fresh ? Date.now() - started : 0,
        attempts: answer.attempts,
        cacheHit: !fresh,
        error: null,
      },
    }),
    fresh,
  );
  if (fresh) {
    progress.inputTokens += response.inputTokens ?? 0;
    progress.outputTokens += response.outputTokens ?? 0;
    progress.cost += cost;
  } else progress.cached++;
  return true;
}
