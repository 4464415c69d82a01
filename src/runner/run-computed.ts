import type { RunRecord } from '../core/run-record.js';
import type { ResultRecord, Store } from '../store/store.js';
import { ResultWriter } from './result-writer.js';

/** A group of results computed together (a retriever ranks a task's corpus once for all its queries). */
export interface ComputedBatch {
  /** The sample (query) ids the batch produces. */
  ids: readonly string[];
  compute(signal: AbortSignal): ResultRecord[] | Promise<ResultRecord[]>;
}

export interface ComputedRunSummary {
  total: number;
  alreadyDone: number;
  done: number;
  interrupted: boolean;
}

/**
 * Runs a baseline or a retriever: the same identity → schedule → score → write path as a model
 * run, with results computed instead of asked for. A batch whose results are all stored already
 * is skipped (re-running the same command resumes); each batch is committed in one transaction
 * when done, so a kill -9 loses at most the batch being computed; a stop (Ctrl-C) ends the run
 * after the current batch, or within it when the computation honours the signal.
 */
export async function runComputed(options: {
  store: Store;
  run: RunRecord;
  batches: readonly ComputedBatch[];
  stopSignal?: AbortSignal;
  onBatch?: (done: number, total: number) => void;
  /** --redact: results keep hashes and lengths instead of text (`redactResult`). */
  redactText?: boolean;
}): Promise<ComputedRunSummary> {
  const { store, run } = options;
  const finished = store.getRun(run.id) ? store.finishedSampleIds(run.id) : new Set<string>();
  const writer = new ResultWriter(store, run, {
    deferUntilAnswer: false,
    redactText: options.redactText ?? false,
  });
  const signal = options.stopSignal ?? new AbortController().signal;
  const summary: ComputedRunSummary = {
    total: options.batches.reduce((sum, batch) => sum + batch.ids.length, 0),
    alreadyDone: 0,
    done: 0,
    interrupted: false,
  };
  for (const batch of options.batches) {
    if (batch.ids.every((id) => finished.has(id))) {
      summary.alreadyDone += batch.ids.length;
      continue;
    }
    if (signal.aborted) break;
    let results: ResultRecord[];
    try {
      results = await batch.compute(signal);
    } catch (error) {
      if (signal.aborted) break;
      throw error;
    }
    await writer.writeAll(results);
    writer.throwIfFailed();
    summary.done += batch.ids.length;
    options.onBatch?.(summary.alreadyDone + summary.done, summary.total);
  }
  await writer.close(false);
  writer.throwIfFailed();
  summary.interrupted = summary.alreadyDone + summary.done < summary.total;
  return summary;
}
