import { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import { describeSampleLimit, type SampleLimit } from '../core/sample-limit.js';
import { readDataset } from '../runner/dataset-file.js';
import { describeModel, type ModelBinding, modelRunIdentity } from '../runner/model-binding.js';
import { runRecordOf } from '../runner/run-identity.js';
import { type RunSummary, startProgress } from '../runner/run-samples.js';
import { firstPerTask, samplesFor } from '../runner/select-samples.js';
import { type Shard, samplesOfShard } from '../runner/shard.js';
import { Store } from '../store/store.js';
import { suiteLeaderboard } from '../store/suite-leaderboard.js';
import { bindModel, type ModelOverrides, tokenCountingNote } from './bind-model.js';
import { loadConfig } from './config.js';
import { dryRunReport } from './dry-run.js';
import { resolveHome, storePathIn } from './home.js';
import { checkRestrictedData } from './restricted-data.js';
import { type RetryOptions, type RunHooks, runModel } from './run-model.js';
import { storedRunText } from './stored-report.js';
import { SUITES } from './suites.js';

export interface EvaluateDatasetRequest extends ModelOverrides, RetryOptions {
  /** A dataset file written by `medbench build` (or `writeDataset`). */
  dataset: string;
  /** A model spec: a config name, baseline, openai:<m>, openai-compatible:<m>@<url> … */
  model: string;
  config?: string;
  home?: string;
  /** Only this task of the dataset. */
  task?: string;
  /** Only the first n samples of each task, in the dataset's order (a run of its own). */
  limit?: number;
  /** Hand the suite's report of the run to `hooks.onReport` when done (default true). */
  report?: boolean;
  /** Treat the dataset as restricted (as its header may say already): approved endpoints only. */
  restricted?: boolean;
  /** Store hashes and lengths instead of prompt, output, gold and error text (a run of its own). */
  redact?: boolean;
  /** Print what the run would send and cost at most (`hooks.onReport`); send and store nothing. */
  dryRun?: boolean;
  /** This machine's share of the run (`medbench merge` joins the shards' stores into one). */
  shard?: Shard;
}

/**
 * A run of a built dataset on a model: binds the model, reads and checks the dataset, finds
 * its suite in `SUITES`, picks the samples the model sees, and runs them through the run
 * pipeline into the store under `home`. What the caller sees comes through `hooks`.
 */
export async function evaluateDataset(
  request: EvaluateDatasetRequest,
  hooks: RunHooks = {},
): Promise<RunSummary> {
  const { config } = await loadConfig(request.config);
  const model = await bindModel({ spec: request.model, config, overrides: request });
  const dataset = await readDataset(request.dataset);
  const suite = SUITES.find((entry) => entry.name === dataset.header.suite && entry.tasks);
  if (!suite?.tasks) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${request.dataset}: unknown suite "${dataset.header.suite}".`,
    });
  }
  const restricted = restrictionOf(request, dataset.header.restricted === true);
  // Before anything is printed, sent or stored.
  checkRestrictedData(model, restricted);
  const { kept: samples, limit } = firstPerTask(
    samplesFor(dataset.samples, model.tokenizer?.name, request.task),
    (sample) => sample.task,
    request.limit,
  );
  const countingNote = tokenCountingNote(model);
  if (countingNote) hooks.onNotice?.(countingNote);
  if (model.notice) hooks.onNotice?.(model.notice);
  if (model.contextWindow === undefined)
    hooks.onNotice?.(
      `warning: no context window known for ${model.modelId}; too_long cannot be detected (set contextWindow in the config or --context-window).`,
    );
  const run = datasetRun({ request, dataset, suite: suite.name, model, limit });
  const store = new Store(storePathIn(resolveHome(request.home)));
  try {
    if (request.dryRun) {
      const finished = store.getRun(run.id) ? store.finishedSampleIds(run.id) : new Set<string>();
      const report = dryRunReport(samples, model, finished);
      hooks.onReport?.(limit ? `${report}\nThe run is ${describeSampleLimit(limit)}.` : report);
      return dryRunSummary(samples.length, finished.size);
    }
    // The run (its id) is the whole run's: the shards' stores merge into one run.
    const share = samplesOfShard(samples, request.shard);
    const shown = request.shard
      ? `${share.length} of ${samples.length} samples (shard ${request.shard.index}/${request.shard.count})`
      : `${samples.length} samples`;
    hooks.onNotice?.(
      `Run ${run.id}: ${shown} of ${request.dataset} on ${model.label}${limit ? `, ${describeSampleLimit(limit)}` : ''} (store ${store.path}).`,
    );
    const summary = await runModel({
      store,
      run,
      samples: share,
      tasks: suite.tasks,
      model,
      retry: request,
      defaults: config.defaults,
      hooks,
      ...(restricted ? { restricted } : {}),
      ...(request.redact ? { redactText: true } : {}),
    });
    hooks.onSummary?.(summary);
    // The viewer's leaderboard, saved for what the store now holds.
    suiteLeaderboard(store, suite, { save: true });
    if (request.report !== false && store.getRun(run.id))
      hooks.onReport?.(storedRunText(store, suite, run.id));
    return summary;
  } finally {
    store.close();
  }
}

/** The run's record: the dataset, the model and every setting that changes a result. */
function datasetRun(options: {
  request: EvaluateDatasetRequest;
  dataset: Awaited<ReturnType<typeof readDataset>>;
  suite: string;
  model: ModelBinding;
  limit: SampleLimit | undefined;
}): RunRecord {
  const { request, model, limit } = options;
  return runRecordOf({
    identity: {
      datasetId: options.dataset.id,
      model: modelRunIdentity(model),
      parameters: {
        ...model.parameters,
        task: request.task ?? null,
        // A limited run is a run of its own, and its report says what it left out.
        ...(limit ? { limit } : {}),
        // A redacted run is a run of its own: it never shares rows with one that kept the text.
        ...(request.redact ? { redacted: true } : {}),
      },
      scoringMode: 'standard',
    },
    suite: options.suite,
    label: model.label,
    datasetPath: options.dataset.path,
    description: describeModel(model),
  });
}

/** The summary of a dry run: nothing done, nothing interrupted. */
function dryRunSummary(total: number, alreadyDone: number): RunSummary {
  return {
    ...startProgress(total, total - alreadyDone),
    interrupted: false,
    failedFast: undefined,
    costCapReached: false,
  };
}

/** Why the dataset's text may go to approved endpoints only, if it may. */
function restrictionOf(request: EvaluateDatasetRequest, headerSays: boolean) {
  if (!request.restricted && !headerSays) return undefined;
  return {
    what: request.dataset,
    why: request.restricted ? 'marked restricted (--restricted)' : 'its header marks it restricted',
  };
}
