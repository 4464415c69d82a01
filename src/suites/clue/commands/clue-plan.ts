import { bindModel, tokenCountingNote } from '../../../compose/bind-model.js';
import { loadConfig } from '../../../compose/config.js';
import { fitPrefillWarned } from '../../../compose/fit-prefill.js';
import type { RunHooks } from '../../../compose/run-model.js';
import type { RunPlan, SuiteRunRequest } from '../../../compose/run-suite.js';
import type { ModelBinding } from '../../../runner/model-binding.js';
import { firstPerTask } from '../../../runner/select-samples.js';
import { buildClueDataset } from '../build-clue-dataset.js';
import { createClueBaseline } from '../clue-baseline.js';
import type { ClueModelKind } from '../clue-conversation.js';
import { createClueTasks } from '../clue-tasks.js';
import { clueSuite } from '../suite.js';
import { clueBaselineWork } from './clue-baseline-work.js';
import {
  addBertScores,
  bertscoreFolders,
  closeBertScoreEncoders,
  openBertScoreEncoders,
  planBertScore,
} from './clue-bertscore.js';
import {
  checkDataUse,
  checkLongHealthTokenizer,
  clueInputFiles,
  clueResources,
  clueTasksIn,
} from './clue-inputs.js';
import { clueRunRequest } from './clue-run-options.js';
import { clueRunRecord } from './clue-run-record.js';

/** The model specs that name CLUE's baseline (computed here, nothing sent). */
const BASELINE_SPECS = ['baseline', 'baseline:clue'];

/**
 * `run clue`'s plan: every CLUE task whose official file is in `data`, on one model or the
 * baseline. Every file and resource is read and checked, the model bound and the BERTScore
 * encoders opened (and probed) here, before anything is sent or stored; `finish` adds BERTScore
 * from the stored outputs, `close` releases the encoders.
 */
export async function cluePlan(request: SuiteRunRequest, hooks: RunHooks): Promise<RunPlan> {
  const options = clueRunRequest(request);
  const { protocol, files, tasks } = clueTasksIn(options, (text) => hooks.onNotice?.(text));
  const bertscore = planBertScore({
    protocol,
    tasks,
    folders: bertscoreFolders(options.bertscoreModel),
    ...(options.bertscoreLayer !== undefined ? { layer: options.bertscoreLayer } : {}),
  });
  const { config } = await loadConfig(options.config);
  const model = BASELINE_SPECS.includes(options.model)
    ? undefined
    : await bindModel({ spec: options.model, config, overrides: options, dryRun: options.dryRun });
  const restricted = checkDataUse(options, tasks, bertscore, model);
  const encoders = await openBertScoreEncoders(bertscore);
  try {
    const resources = await clueResources(options, bertscore);
    const kind = kindOf(model);
    checkLongHealthTokenizer(model, tasks);
    // Every file is read and validated before anything runs or is stored.
    const build = await buildClueDataset({
      tasks,
      files,
      context: { protocol, model: kind, contextWindow: model?.contextWindow },
      tokenizer: model?.tokenizer,
      seed: options.seed ?? 1,
    });
    // --limit: the first n items of each task, in the protocol's order (as every run).
    const { kept: samples, limit } = firstPerTask([...build.samples], (sample) => sample.task, options.limit);
    const { prefill, warning } = model
      ? fitPrefillWarned(samples, model.endpoints[0]!.model.capabilities)
      : { prefill: 'none (baseline)', warning: undefined };
    const missingBertScore = bertscore.missing;
    const run = clueRunRecord({
      request: options,
      samples,
      model,
      protocol,
      tasks,
      kind,
      prefill,
      resources,
      missingBertScore,
      limit,
    });
    const scoring = { protocol, modelId: model?.modelId ?? 'baseline' };
    return {
      suite: clueSuite,
      run,
      samples,
      limit,
      source: options.data,
      inputs: clueInputFiles(options, tasks, files),
      notices: model ? notices(model, warning) : [],
      work: model
        ? {
            kind: 'model',
            model,
            tasks: createClueTasks(resources, scoring),
            defaults: config.defaults,
            ...(restricted ? { restricted } : {}),
          }
        : clueBaselineWork(
            createClueBaseline({ resources, scoring, codePool: build.record.codePool, seed: 1 }),
          ),
      finish: (store, runHooks, finished) =>
        addBertScores(store, finished.id, bertscore, encoders, (text) => runHooks.onNotice?.(text)),
      close: () => closeBertScoreEncoders(encoders),
    };
  } catch (error) {
    await closeBertScoreEncoders(encoders);
    throw error;
  }
}

/** What to tell before a model's run: a left-out prefill, how tokens are counted, the model's own notice. */
function notices(model: ModelBinding, prefillWarning: string | undefined): string[] {
  return [prefillWarning, tokenCountingNote(model), model.notice].filter((note): note is string =>
    Boolean(note),
  );
}

/** How the prompts are made for the model (the baseline sends none: an instruct model's). */
function kindOf(model: ModelBinding | undefined): ClueModelKind {
  return model
    ? { instruct: model.instruct, systemRole: model.systemRole }
    : { instruct: true, systemRole: true };
}
