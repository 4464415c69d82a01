import type { RunHooks } from '../../../compose/run-model.js';
import type { ComputedWork } from '../../../compose/run-suite.js';
import type { RunRecord } from '../../../core/run-record.js';
import type { Sample } from '../../../core/sample.js';
import { resultRecord } from '../../../runner/result-columns.js';
import { runComputed } from '../../../runner/run-computed.js';
import type { Store } from '../../../store/store.js';
import type { createClueBaseline } from '../clue-baseline.js';

/** Items the baseline computes at a time: one transaction each, so a stop loses at most one batch. */
const BATCH = 256;

/** The baseline's results, computed in batches through the run pipeline (resumable, Ctrl-C safe). */
export function clueBaselineWork(baseline: ReturnType<typeof createClueBaseline>): ComputedWork {
  return {
    kind: 'computed',
    dryRun: (left, finished) =>
      `Dry run: nothing was computed or stored. The CLUE baseline: ${left} of ${left + finished} items left to compute in this process${finished > 0 ? ` (${finished} stored before)` : ''}; nothing is sent to a model.`,
    compute: (options) => runBaseline({ ...options, baseline }),
  };
}

async function runBaseline(options: {
  store: Store;
  run: RunRecord;
  samples: readonly Sample[];
  baseline: ReturnType<typeof createClueBaseline>;
  hooks: RunHooks;
  redactText: boolean;
}) {
  const started = Date.now();
  let skipped = 0;
  const summary = await runComputed({
    store: options.store,
    run: options.run,
    redactText: options.redactText,
    ...(options.hooks.stopSignal ? { stopSignal: options.hooks.stopSignal } : {}),
    batches: chunks(options.samples, BATCH).map((batch) => ({
      ids: batch.map((sample) => sample.id),
      compute: () =>
        batch.flatMap((sample) => {
          const outcome = options.baseline(sample);
          if (!outcome) skipped++;
          return outcome
            ? // The item's prompt is kept (shared with every model's run): a judge or a reviewer reads it.
              [
                resultRecord({
                  runId: options.run.id,
                  sample,
                  prompt: sample.prompt,
                  promptTokens: null,
                  outcome,
                }),
              ]
            : [];
        }),
    })),
  });
  if (skipped > 0)
    options.hooks.onNotice?.(
      `baseline: ${skipped} Problem Summary items not computed (the baseline needs --umls)`,
    );
  const seconds = (Date.now() - started) / 1000;
  options.hooks.onComputed?.({
    ...summary,
    seconds,
    detail: `Baseline: ${summary.done} items scored in ${seconds.toFixed(1)} s (run ${options.run.id}${summary.alreadyDone > 0 ? `; ${summary.alreadyDone} scored before` : ''}).`,
  });
  return summary;
}

function chunks<Item>(items: readonly Item[], size: number): Item[][] {
  const out: Item[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}
