import type { MedbenchConfig } from '../compose/config.js';
import { redactKnownSecrets } from '../compose/known-secrets.js';
import type { Sample } from '../core/sample.js';
import type { Task } from '../core/task.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../runner/retry.js';
import { errorKind, type RetryEvent, type RunSummary, runSamples } from '../runner/run-samples.js';
import { RequestClaims } from '../store/request-claims.js';
import type { RunRecord, Store } from '../store/store.js';
import type { CommandOutput } from './commands/build-medodyssey.js';
import { progressReporter } from './progress-bar.js';

/** Exit codes of medbench (README, "Exit codes"). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  /** The run finished, but some samples got no answer (stored as errors; re-run to retry them). */
  incomplete: 3,
  interrupted: 130,
} as const;

/** How hard medbench tries per request and per sample; every field has a flag and a config default. */
export interface RetryOptions {
  maxRetries?: number;
  timeoutMs?: number;
  maxRetryWaitMs?: number;
  sampleTimeoutMs?: number;
  failFast?: boolean;
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
 * Retry lines, at most one per kind of error every 2 s (with how many were folded in), and an
 * unreachable endpoint announced once: 32 workers hitting the same 429 print one line, not 32.
 */
function retryPrinter(output: CommandOutput, unreachableMs: number) {
  const lastAt = new Map<string, number>();
  const folded = new Map<string, number>();
  return (event: RetryEvent) => {
    const kind = errorKind(event.error);
    if (event.error.code === 'ENDPOINT_UNREACHABLE') {
      if (lastAt.has(kind)) return;
      lastAt.set(kind, Date.now());
      output.stderr(
        redactKnownSecrets(`\n${event.error.message} Trying again for up to ${unreachableMs / 1000} s.\n`),
      );
      return;
    }
    const now = Date.now();
    if (now - (lastAt.get(kind) ?? 0) < 2000) {
      folded.set(kind, (folded.get(kind) ?? 0) + 1);
      return;
    }
    const more = folded.get(kind) ?? 0;
    lastAt.set(kind, now);
    folded.delete(kind);
    output.stderr(
      redactKnownSecrets(
        `\n${event.sampleId}: ${event.error.message} — attempt ${event.attempt} failed, retrying in ${(event.delayMs / 1000).toFixed(1)} s${more > 0 ? ` (${more} more retries like it since the last line)` : ''}\n`,
      ),
    );
  };
}

/** "2 × HTTP 500, 1 × timeout". */
function kinds(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort((left, right) => right[1] - left[1])
    .map(([kind, count]) => `${count} × ${kind}`)
    .join(', ');
}

/**
 * Ctrl-C and SIGTERM for a run without model calls (a baseline, a retriever): the first asks it to
 * stop (it ends after what it is computing, or within it), the second too; its finished batches
 * are stored, and the command exits 130.
 */
export function stopOnSignals(output: CommandOutput): { signal: AbortSignal; dispose(): void } {
  const stop = new AbortController();
  const onSignal = () => {
    if (!stop.signal.aborted)
      output.stderr('\nStopping: finished work is kept. Re-run the same command to finish.\n');
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: stop.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** The end of a run: counts, errors by kind with the first message of each, and the exit code. */
function printSummary(output: CommandOutput, summary: RunSummary): void {
  const heading = summary.interrupted ? 'Interrupted' : summary.errors > 0 ? 'Finished with errors' : 'Done';
  output.stderr(
    `${heading}: ${summary.done} new, ${summary.alreadyDone} from before, ${summary.cached} from cache, ${summary.tooLong} too_long, ${summary.errors} errors; ${summary.inputTokens} input / ${summary.outputTokens} output tokens, cost ${summary.cost.toFixed(4)}.\n`,
  );
  if (summary.failedFast)
    output.stderr(
      redactKnownSecrets(
        `Stopped at the first sample without an answer (--fail-fast): ${summary.failedFast.message}\n`,
      ),
    );
  if (summary.errors > 0) {
    output.stderr(
      `${summary.errors} ${summary.errors === 1 ? 'sample' : 'samples'} got no answer (${kinds(summary.errorKinds)}). They are stored as errors and count as wrong in reports; re-run the same command to retry only them (\`medbench view\` shows each error).\n`,
    );
    for (const [kind, message] of Object.entries(summary.errorExamples))
      output.stderr(redactKnownSecrets(`  first ${kind}: ${message}\n`));
  }
  process.exitCode =
    summary.interrupted && !summary.failedFast
      ? EXIT.interrupted
      : summary.errors > 0
        ? EXIT.incomplete
        : EXIT.ok;
}

/**
 * Runs samples on a model as a command does: Ctrl-C/SIGTERM once stops gracefully (no new
 * requests, waits between retries end, requests in flight finish and are kept), twice cancels
 * those too; progress on stderr; then a summary and the exit code — 0 only when every sample
 * was answered, 3 when some got no answer, 130 when stopped.
 */
export async function runModelSession(options: {
  store: Store;
  run: RunRecord;
  samples: readonly Sample[];
  tasks: Readonly<Record<string, Task>>;
  model: ModelBinding;
  retry: RetryOptions;
  defaults?: MedbenchConfig['defaults'];
  output: CommandOutput;
}): Promise<RunSummary> {
  const { output } = options;
  const defaults = options.defaults ?? {};
  const policy = retryPolicyFrom(options.retry, defaults);
  const stop = new AbortController();
  const abort = new AbortController();
  const onSignal = () => {
    if (!stop.signal.aborted) {
      output.stderr(
        '\nStopping: waiting for requests in flight (Ctrl-C again to cancel them). Re-run the same command to finish.\n',
      );
      stop.abort();
    } else {
      abort.abort();
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const progress = progressReporter();
  const claims = RequestClaims.beside(options.store.path);
  try {
    const summary = await runSamples({
      store: options.store,
      run: options.run,
      samples: options.samples,
      tasks: options.tasks,
      model: options.model,
      retry: policy,
      timeoutMs: options.retry.timeoutMs ?? defaults.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      sampleTimeoutMs: options.retry.sampleTimeoutMs ?? defaults.sampleTimeoutMs ?? DEFAULT_SAMPLE_TIMEOUT_MS,
      failFast: options.retry.failFast ?? false,
      stopSignal: stop.signal,
      abortSignal: abort.signal,
      onProgress: (state) => progress.update(state),
      onRetry: retryPrinter(output, policy.unreachableMs),
      redact: redactKnownSecrets,
      claims,
    });
    progress.finish();
    printSummary(output, summary);
    return summary;
  } finally {
    claims.close();
    progress.finish();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
