import { bindModel, type ModelOverrides } from '../../compose/bind-model.js';
import { loadConfig } from '../../compose/config.js';
import { resolveHome, storePathIn } from '../../compose/home.js';
import { SUITES } from '../../compose/suites.js';
import { MedbenchError } from '../../core/errors.js';
import type { Sample } from '../../core/sample.js';
import { readDataset } from '../../runner/dataset-file.js';
import { describeModel, modelRunIdentity } from '../../runner/model-binding.js';
import { runRecordOf } from '../../runner/run-identity.js';
import type { RunSummary } from '../../runner/run-samples.js';
import { Store } from '../../store/store.js';
import { type RetryOptions, runModelSession } from '../run-session.js';
import type { CommandOutput } from './build-medodyssey.js';
import { storedReport } from './report.js';

export interface RunCommandOptions extends ModelOverrides, RetryOptions {
  dataset: string;
  model: string;
  config?: string;
  home?: string;
  task?: string;
  /** Show the result tables when done (default true). */
  report?: boolean;
}

/** Picks the samples a model sees: a per-model dataset holds one fitted copy per tokenizer. */
function samplesFor(
  samples: readonly Sample[],
  tokenizerName: string | undefined,
  task: string | undefined,
): Sample[] {
  if (samples.length === 0) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: 'The dataset holds no samples (only its header line).',
      hint: 'Build it again with `medbench build medodyssey`; check --task, --lang and --levels there.',
    });
  }
  let selected = task ? samples.filter((sample) => sample.task === task) : [...samples];
  if (selected.length === 0) {
    const tasks = [...new Set(samples.map((sample) => sample.task))].sort();
    throw new MedbenchError({
      code: 'USAGE',
      message: `--task ${task}: the dataset has no samples of that task; it has ${tasks.join(', ')}.`,
    });
  }
  const fitted = selected.some((sample) => sample.params.fitFor !== undefined);
  if (fitted) {
    selected = selected.filter((sample) => sample.params.fitFor === tokenizerName);
    if (selected.length === 0) {
      throw new MedbenchError({
        code: 'USAGE',
        message: `This per-model dataset holds no samples fitted for the tokenizer ${tokenizerName ?? '(none)'}.`,
        hint: 'Rebuild it with that tokenizer in --tokenizers, or pass --tokenizer to match one it has.',
      });
    }
  }
  return selected;
}

/** `medbench run`: runs a dataset against a model, storing every response and score. */
export async function runCommand(options: RunCommandOptions, output: CommandOutput): Promise<RunSummary> {
  const { config } = await loadConfig(options.config);
  const model = await bindModel({ spec: options.model, config, overrides: options });
  const dataset = await readDataset(options.dataset);
  const suite = SUITES.find((entry) => entry.name === dataset.header.suite && entry.tasks);
  const tasks = suite?.tasks;
  if (!suite || !tasks) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${options.dataset}: unknown suite "${dataset.header.suite}".`,
    });
  }
  const samples = samplesFor(dataset.samples, model.tokenizer?.name, options.task);
  if (model.contextWindow === undefined) {
    output.stderr(
      `warning: no context window known for ${model.modelId}; too_long cannot be detected (set contextWindow in the config or --context-window).\n`,
    );
  }
  const run = runRecordOf({
    identity: {
      datasetId: dataset.id,
      model: modelRunIdentity(model),
      parameters: { ...model.parameters, task: options.task ?? null },
      scoringMode: 'standard',
    },
    suite: suite.name,
    label: model.label,
    datasetPath: dataset.path,
    description: describeModel(model),
  });
  const runId = run.id;
  const home = resolveHome(options.home);
  const store = new Store(storePathIn(home));
  try {
    output.stderr(
      `Run ${runId}: ${samples.length} samples of ${options.dataset} on ${model.label} (store ${store.path}).\n`,
    );
    const summary = await runModelSession({
      store,
      run,
      samples,
      tasks,
      model,
      retry: options,
      defaults: config.defaults,
      output,
    });
    if (options.report !== false && store.getRun(runId)) {
      output.stdout(`${suite.renderText(storedReport(store, suite, { runIds: [runId] }), {})}\n`);
    }
    return summary;
  } finally {
    store.close();
  }
}
