import { MedbenchError } from '../../core/errors.js';
import type { Sample } from '../../core/sample.js';
import { renderMedOdysseyText } from '../../report/medodyssey-report.js';
import { canonicalJson } from '../../runner/canonical-json.js';
import { readDataset } from '../../runner/dataset-file.js';
import { describeModel, modelRunIdentity } from '../../runner/model-binding.js';
import { DEFAULT_RETRY_POLICY } from '../../runner/retry.js';
import { type RunSummary, runSamples } from '../../runner/run-samples.js';
import { Store, sha256 } from '../../store/store.js';
import { medodysseyTasks } from '../../suites/medodyssey/index.js';
import { loadConfig } from '../config.js';
import { resolveHome, storePathIn } from '../home.js';
import { bindModel, type ModelOverrides } from '../model-spec.js';
import { progressReporter } from '../progress-bar.js';
import type { CommandOutput } from './build-medodyssey.js';
import { medodysseyReportFor } from './report.js';

export interface RunCommandOptions extends ModelOverrides {
  dataset: string;
  model: string;
  config?: string;
  home?: string;
  task?: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Show the result tables when done (default true). */
  report?: boolean;
}

const SUITE_TASKS: Record<string, typeof medodysseyTasks> = { medodyssey: medodysseyTasks };

/** Picks the samples a model sees: a per-model dataset holds one fitted copy per tokenizer. */
function samplesFor(
  samples: readonly Sample[],
  tokenizerName: string | undefined,
  task: string | undefined,
): Sample[] {
  let selected = task ? samples.filter((sample) => sample.task === task) : [...samples];
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
  const tasks = SUITE_TASKS[dataset.header.suite];
  if (!tasks) {
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
  const modelIdentity = describeModel(model);
  const parameters = { ...model.parameters, task: options.task ?? null };
  const runId = sha256(
    canonicalJson({
      version: 2,
      datasetId: dataset.id,
      model: modelRunIdentity(model),
      parameters,
      scoringMode: 'standard',
    }),
  ).slice(0, 16);
  const home = resolveHome(options.home);
  const store = new Store(storePathIn(home));
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
  try {
    output.stderr(
      `Run ${runId}: ${samples.length} samples of ${options.dataset} on ${model.label} (store ${store.path}).\n`,
    );
    const summary = await runSamples({
      store,
      run: {
        id: runId,
        suite: dataset.header.suite,
        label: model.label,
        datasetId: dataset.id,
        datasetPath: dataset.path,
        model: modelIdentity,
        parameters,
        source: 'medbench',
        scoringMode: 'standard',
        createdAt: new Date().toISOString(),
      },
      samples,
      tasks,
      model,
      retry: {
        ...DEFAULT_RETRY_POLICY,
        ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      },
      timeoutMs: options.timeoutMs ?? 600_000,
      stopSignal: stop.signal,
      abortSignal: abort.signal,
      onProgress: (state) => progress.update(state),
      onRetry: (message) => output.stderr(`\n${message}\n`),
    });
    progress.finish();
    output.stderr(
      `${summary.interrupted ? 'Interrupted' : 'Done'}: ${summary.done} new, ${summary.alreadyDone} from before, ${summary.cached} from cache, ${summary.tooLong} too_long, ${summary.errors} errors; ${summary.inputTokens} input / ${summary.outputTokens} output tokens, cost ${summary.cost.toFixed(4)}.\n`,
    );
    if (options.report !== false && store.getRun(runId)) {
      output.stdout(`${renderMedOdysseyText(medodysseyReportFor(store, { runIds: [runId] }))}\n`);
    }
    if (summary.interrupted) process.exitCode = 130;
    return summary;
  } finally {
    progress.finish();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    store.close();
  }
}
