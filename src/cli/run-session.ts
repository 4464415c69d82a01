import { redactKnownSecrets } from '../compose/known-secrets.js';
import type { RunHooks } from '../compose/run-model.js';
import type { CommandOutput } from '../core/command-output.js';
import type { RetryPolicy } from '../runner/retry.js';
import { errorKind, type RetryEvent, type RunSummary } from '../runner/run-samples.js';
import { batchReporter, money, progressLine, progressReporter } from './progress-bar.js';

/** Exit codes of medbench (README, "Exit codes"). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  /** The run finished, but some samples got no answer (stored as errors; re-run to retry them). */
  incomplete: 3,
  interrupted: 130,
} as const;

/**
 * Retry lines, at most one per kind of error every 2 s (with how many were folded in), and an
 * unreachable endpoint announced once: 32 workers hitting the same 429 print one line, not 32.
 */
function retryPrinter(output: CommandOutput) {
  const lastAt = new Map<string, number>();
  const folded = new Map<string, number>();
  return (event: RetryEvent, policy: RetryPolicy) => {
    const unreachableMs = policy.unreachableMs;
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

/** The end of a run: counts, errors by kind with the first message of each, and the exit code. */
function printSummary(output: CommandOutput, summary: RunSummary): void {
  const heading = summary.interrupted ? 'Interrupted' : summary.errors > 0 ? 'Finished with errors' : 'Done';
  output.stderr(
    `${heading}: ${summary.done} new, ${summary.alreadyDone} from before, ${summary.cached} from cache, ${summary.tooLong} too_long, ${summary.errors} errors; ${summary.inputTokens} input / ${summary.outputTokens} output tokens, cost ${money(summary.cost)}.\n`,
  );
  const caches = summary.explicitCaches;
  if (caches)
    output.stderr(
      `Explicit prompt caches: ${caches.made} made (${caches.tokens} tokens), cost ${money(caches.cost)} to make and store, billed apart from the answers: not in the cost above, in the report's Cost.\n`,
    );
  if (summary.failedFast)
    output.stderr(
      redactKnownSecrets(
        `Stopped at the first sample without an answer (--fail-fast): ${summary.failedFast.message}\n`,
      ),
    );
  if (summary.costCapReached)
    output.stderr(
      'Stopped at the cost cap (--max-cost): the next request could have passed it. Every answer is stored; re-run with a higher --max-cost to go on.\n',
    );
  if (summary.errors > 0) {
    output.stderr(
      `${summary.errors} ${summary.errors === 1 ? 'sample' : 'samples'} got no answer (${kinds(summary.errorKinds)}). ${summary.errorMeaning ?? 'They are stored as errors and count as wrong in reports'}; re-run the same command to retry only them (\`medbench view\` shows each error).\n`,
    );
    for (const [kind, message] of Object.entries(summary.errorExamples))
      output.stderr(redactKnownSecrets(`  first ${kind}: ${message}\n`));
  }
  process.exitCode =
    summary.interrupted && !summary.failedFast && !summary.costCapReached
      ? EXIT.interrupted
      : summary.errors > 0 || summary.costCapReached
        ? EXIT.incomplete
        : EXIT.ok;
}

/**
 * A run as a terminal shows it: the first Ctrl-C (or SIGTERM) stops it gracefully (no new work,
 * waits between retries end, requests in flight finish and are kept), the second cancels those
 * too; a progress line on stderr; retry lines folded; then the summary and the exit code — 0
 * only when every sample was answered, 3 when some got no answer, 130 when stopped.
 */
export function terminalSession(output: CommandOutput): { hooks: RunHooks; dispose(): void } {
  const stop = new AbortController();
  const abort = new AbortController();
  const onSignal = () => {
    if (!stop.signal.aborted) {
      output.stderr(
        '\nStopping: waiting for requests in flight (Ctrl-C again to cancel them). Re-run the same command to finish.\n',
      );
      stop.abort();
    } else abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const progress = progressReporter();
  // A computed run's stages (MedEureka: embedding, ranking), drawn as the run's progress is.
  const stages = progressLine();
  const hooks: RunHooks = {
    stopSignal: stop.signal,
    abortSignal: abort.signal,
    onProgress: (state) => progress.update(state),
    onBatch: batchReporter(),
    onRetry: retryPrinter(output),
    onStage: (stage, done, total) => stages.update(`${stage} ${done}/${total}`, done === total),
    onNotice: (text) => output.stderr(redactKnownSecrets(`${text}\n`)),
    onSummary: (summary) => {
      progress.finish();
      printSummary(output, summary);
    },
    onComputed: (summary) => {
      stages.finish();
      output.stderr(`${summary.detail}\n`);
      if (summary.interrupted) {
        output.stderr('Stopped: every finished part is stored; re-run the same command to finish.\n');
        process.exitCode = EXIT.interrupted;
      }
    },
    onReport: (text) => {
      stages.finish();
      output.stdout(`${text}\n`);
    },
  };
  return {
    hooks,
    dispose: () => {
      progress.finish();
      stages.finish();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
