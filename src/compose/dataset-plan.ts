import { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { Sample } from '../core/sample.js';
import type { SampleLimit } from '../core/sample-limit.js';
import type { Suite } from '../core/suite.js';
import { readDataset } from '../runner/dataset-file.js';
import { describeModel, type ModelBinding, modelRunIdentity } from '../runner/model-binding.js';
import { runRecordOf } from '../runner/run-identity.js';
import { firstPerTask, samplesFor } from '../runner/select-samples.js';
import { bindModel, tokenCountingNote } from './bind-model.js';
import { loadConfig } from './config.js';
import { checkRestrictedData } from './restricted-data.js';
import type { RunPlan, RunRequest } from './run-suite.js';

/** A run of a built dataset file (`evaluateDataset`, `datasetPlan`): the run's options and the file. */
export interface EvaluateDatasetRequest extends RunRequest {
  /** A dataset file written by `medbench build` (or `writeDataset`). */
  dataset: string;
  /** Only this task of the dataset. */
  task?: string;
  /**
   * Ask each question without its context (the suite's `closedBook`; tasks without a
   * closed-book form are left out): a run of its own, marked `closedBook` in its parameters.
   */
  closedBook?: boolean;
}

/**
 * The plan of a run of a built dataset on a model: binds the model, reads and checks the dataset,
 * finds its suite among `suites` and picks the samples the model sees. Nothing is sent or stored.
 */
export async function datasetPlan(
  request: EvaluateDatasetRequest,
  suites: readonly Suite[],
): Promise<RunPlan> {
  const { config } = await loadConfig(request.config);
  const model = await bindModel({ spec: request.model, config, overrides: request, dryRun: request.dryRun });
  const dataset = await readDataset(request.dataset);
  const suite = suites.find((entry) => entry.name === dataset.header.suite && entry.tasks);
  if (!suite?.tasks) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${request.dataset}: unknown suite "${dataset.header.suite}".`,
    });
  }
  const restricted = restrictionOf(request, dataset.header.restricted === true);
  // Before anything is printed, sent or stored.
  checkRestrictedData(model, restricted);
  const selected = samplesFor(dataset.samples, model.tokenizer?.name, request.task);
  const { kept: samples, limit } = firstPerTask(
    request.closedBook ? closedBookSamples(suite, selected, request.dataset) : selected,
    (sample) => sample.task,
    request.limit,
  );
  const notices = [tokenCountingNote(model), model.notice];
  if (model.contextWindow === undefined)
    notices.push(
      `warning: no context window known for ${model.modelId}; too_long cannot be detected (set contextWindow in the config or --context-window).`,
    );
  return {
    suite,
    run: datasetRun({ request, dataset, suite: suite.name, model, limit }),
    samples,
    limit,
    source: request.dataset,
    inputs: [{ role: 'dataset', path: request.dataset, ...releaseOf(dataset.header.build) }],
    notices: notices.filter((note): note is string => Boolean(note)),
    work: {
      kind: 'model',
      model,
      tasks: suite.tasks,
      defaults: config.defaults,
      ...(restricted ? { restricted } : {}),
    },
  };
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
        // So is a closed-book one (its prompts differ too, so it shares no cached answers).
        ...(request.closedBook ? { closedBook: true } : {}),
      },
      scoringMode: 'standard',
    },
    suite: options.suite,
    // Every table names it apart from the model's run with context.
    label: request.closedBook ? `${model.label} (closed-book)` : model.label,
    datasetPath: options.dataset.path,
    description: describeModel(model),
  });
}

/** The samples of the tasks that have a closed-book form, asked without their context. */
function closedBookSamples(suite: Suite, samples: readonly Sample[], path: string): Sample[] {
  const closed = suite.closedBook ? samples.flatMap((sample) => suite.closedBook!(sample) ?? []) : [];
  if (closed.length === 0)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--closed-book: ${suite.closedBook ? `no task of ${path} selected has a closed-book form` : `suite ${suite.name} has no closed-book runs`}.`,
      hint: suite.closedBook
        ? 'Choose tasks that ask a question of their context (--task; MedOdyssey: niah, kg, term, table, case).'
        : 'Run without --closed-book.',
    });
  return closed;
}

/** Why the dataset's text may go to approved endpoints only, if it may. */
function restrictionOf(request: EvaluateDatasetRequest, headerSays: boolean) {
  if (!request.restricted && !headerSays) return undefined;
  return {
    what: request.dataset,
    why: request.restricted ? 'marked restricted (--restricted)' : 'its header marks it restricted',
  };
}

/** The release files a dataset's build hashed (its header's `build.files`), where it did. */
function releaseOf(build: Record<string, unknown>): { release?: Record<string, string> } {
  const files = build.files;
  if (typeof files !== 'object' || files === null) return {};
  const entries = Object.entries(files).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && /^[0-9a-f]{64}$/.test(entry[1]),
  );
  return entries.length > 0 ? { release: Object.fromEntries(entries) } : {};
}
