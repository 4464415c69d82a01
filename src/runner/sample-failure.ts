import type { ChatModel } from '../core/chat-model.js';
import { failsWholeEndpoint, type MedbenchError } from '../core/errors.js';
import type { Sample } from '../core/sample.js';
import { resultRecord } from './result-columns.js';
import type { SampleRequest } from './sample-request.js';
import { errorKind, type SampleRun } from './sample-run.js';

/** The record of a sample that got no answer: wrong and counted, with the reason. */
export function writeFailure(
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
  void context.writer.write(
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

/**
 * A request given up after its retries: left for the next run (stopped), for another endpoint of
 * the model (its attempts carried along), the run stopped (fatal), or the sample's error.
 */
export function giveUp(
  context: SampleRun,
  send: { sample: Sample; endpoint: ChatModel; request: SampleRequest; started: number },
  failure: { error: MedbenchError; stopped: boolean; attempts: number },
): 'left' | 'failed' {
  const { control } = context;
  const { sample, endpoint } = send;
  const { error, attempts } = failure;
  if (failure.stopped || error.code === 'ABORTED' || control.hardStop.signal.aborted) return 'left';
  const wholeEndpoint = failsWholeEndpoint(error);
  // Refused, unreachable, no such model, or retries spent on errors that may be the endpoint's
  // (5xx, resets, timeouts): another endpoint of the model may answer it, not an error of the sample.
  if ((wholeEndpoint || error.retryable) && context.failover?.(endpoint, error, sample, send.started)) {
    context.triedElsewhere?.set(sample.id, attempts);
    return 'left';
  }
  if (wholeEndpoint) {
    context.fatal ??= error;
    control.hardStop.abort();
    return 'left';
  }
  recordError(context, sample, send.request, error, attempts, send.started);
  return 'failed';
}
