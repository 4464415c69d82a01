import type { BatchProgress } from '../core/batch-client.js';
import type { ProgressLine } from '../core/command-output.js';
import type { RunProgress } from '../runner/run-samples.js';

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const rounded = Math.round(seconds);
  if (rounded < 60) return `${rounded}s`;
  if (rounded < 3600) return `${Math.floor(rounded / 60)}m${String(rounded % 60).padStart(2, '0')}s`;
  return `${Math.floor(rounded / 3600)}h${String(Math.floor((rounded % 3600) / 60)).padStart(2, '0')}m`;
}

function compact(count: number): string {
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)}M`;
  if (count >= 1e3) return `${(count / 1e3).toFixed(1)}k`;
  return String(count);
}

/** A cost as the report shows it: four decimals, or — when no price is known. */
export function money(cost: number | null): string {
  return cost === null ? '—' : cost.toFixed(4);
}

/** One progress line: bar, counts, ETA, tokens and cost so far. */
export function formatProgress(progress: RunProgress, now = Date.now()): string {
  const remaining = progress.total - progress.alreadyDone;
  const share = remaining === 0 ? 1 : progress.done / remaining;
  const width = 24;
  const filled = Math.round(share * width);
  const elapsed = (now - progress.startedAt) / 1000;
  const eta = progress.done === 0 ? Number.NaN : (elapsed / progress.done) * (remaining - progress.done);
  return [
    `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${progress.alreadyDone + progress.done}/${progress.total}`,
    `${(share * 100).toFixed(0)}%`,
    `ETA ${duration(eta)}`,
    `${compact(progress.inputTokens)} in / ${compact(progress.outputTokens)} out tokens`,
    `cost ${money(progress.cost)}`,
    `${progress.cached} cached, ${progress.tooLong} too_long, ${progress.errors} errors`,
  ].join(' · ');
}

/**
 * A progress line on `stream`: redrawn in place on a terminal (at most every 100 ms), a line every
 * 10 s otherwise (the first at once), as `run`'s progress is drawn.
 */
export function progressLine(stream: NodeJS.WriteStream = process.stderr): ProgressLine {
  let lastLine = 0;
  let drawn = false;
  return {
    update(text, force = false) {
      const now = Date.now();
      if (now - lastLine < (stream.isTTY ? 100 : 10_000) && !force) return;
      lastLine = now;
      if (stream.isTTY) {
        stream.write(`\r\x1b[2K${text}`);
        drawn = true;
      } else stream.write(`${text}\n`);
    },
    finish() {
      if (drawn) stream.write('\n');
      drawn = false;
      lastLine = 0;
    },
  };
}

/** Draws a run's progress on stderr: redrawn in place on a terminal, a line every 10 s otherwise. */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr) {
  const line = progressLine(stream);
  return {
    update(progress: RunProgress) {
      const complete = progress.done + progress.alreadyDone === progress.total;
      line.update(formatProgress(progress), complete);
    },
    finish: () => line.finish(),
  };
}

/** `Batch batch_abc (medbench-…): in_progress · 12 done, 1 failed of 40 · 3m05s`. */
export function formatBatchProgress(progress: BatchProgress): string {
  const { done, failed, total } = progress.counts;
  return [
    `Batch ${progress.batchId ?? progress.localId}${progress.batchId ? ` (${progress.localId})` : ''}: ${progress.state}`,
    `${done} done, ${failed} failed of ${total}`,
    duration(progress.elapsedMs / 1000),
  ].join(' · ');
}

/** Batch progress on stderr: redrawn in place on a terminal, otherwise a line when the state or counts change. */
export function batchReporter(stream: NodeJS.WriteStream = process.stderr) {
  const last = new Map<string, string>();
  return (progress: BatchProgress) => {
    if (stream.isTTY) {
      stream.write(`\r\x1b[2K${formatBatchProgress(progress)}`);
      return;
    }
    const { done, failed, total } = progress.counts;
    const key = `${progress.state} ${done} ${failed} ${total}`;
    if (last.get(progress.localId) === key) return;
    last.set(progress.localId, key);
    stream.write(`${formatBatchProgress(progress)}\n`);
  };
}
