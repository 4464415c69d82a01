import { bindModel, type ModelOverrides, tokenCountingNote } from '../../compose/bind-model.js';
import { loadConfig } from '../../compose/config.js';
import { fitPrefillWarned } from '../../compose/fit-prefill.js';
import { resolveHome, storePathIn } from '../../compose/home.js';
import { parseChoiceList } from '../../compose/parse-options.js';
import { checkRestrictedData, type DataRestriction } from '../../compose/restricted-data.js';
import { type RetryOptions, type RunHooks, runModel } from '../../compose/run-model.js';
import { storedRunText } from '../../compose/stored-report.js';
import type { CommandOutput } from '../../core/command-output.js';
import { MedbenchError } from '../../core/errors.js';
import type { RunRecord } from '../../core/run-record.js';
import type { Sample } from '../../core/sample.js';
import type { SampleLimit } from '../../core/sample-limit.js';
import { describeModel, type ModelBinding, modelRunIdentity } from '../../runner/model-binding.js';
import { resultRecord } from '../../runner/result-columns.js';
import { runComputed } from '../../runner/run-computed.js';
import { runRecordOf } from '../../runner/run-identity.js';
import { firstPerTask } from '../../runner/select-samples.js';
import { type Shard, samplesOfShard } from '../../runner/shard.js';
import { Store, sha256 } from '../../store/store.js';
import { suiteLeaderboard } from '../../store/suite-leaderboard.js';
import { createClueBaseline } from '../../suites/clue/clue-baseline.js';
import type { ClueModelKind } from '../../suites/clue/clue-conversation.js';
import { type ClueResources, createClueTasks, notComputed } from '../../suites/clue/clue-tasks.js';
import { ConceptMatcher } from '../../suites/clue/concept-matcher.js';
import { shippedIcdTables } from '../../suites/clue/icd-tables.js';
import {
  CLUE_TASKS,
  type ClueTaskName,
  findClueFiles,
  loadIcd10Codes,
  MIMIC_DERIVED_TASKS,
} from '../../suites/clue/load-tasks.js';
import { loadMrconso } from '../../suites/clue/mrconso.js';
import { CLUE_PROTOCOL, CLUE_PROTOCOLS, type ClueProtocol } from '../../suites/clue/protocols.js';
import { clueSuite } from '../../suites/clue/suite.js';
import { listTokenizers } from '../../tokenizers/registry.js';
import { terminalSession } from '../run-session.js';
import { addBertScores, bertscoreFolders, openBertScoreEncoders, planBertScore } from './clue-bertscore.js';

export interface RunClueOptions extends ModelOverrides, RetryOptions {
  data: string;
  model: string;
  config?: string;
  home?: string;
  tasks?: string;
  /** paper-2024 (default) or repo-2025: which version of the authors' scripts to follow. */
  protocol?: string;
  limit?: number;
  umls?: string;
  umlsLanguage?: string;
  icd10?: string;
  /** Seed of the Python generator LongHealth draws its document orders and distractors from. */
  seed?: number;
  /** Local ONNX encoders for BERTScore: `<encoder name>=<folder>`, or a folder for every encoder. */
  bertscoreModel?: string[];
  /**
   * Read this hidden layer instead of the protocol's (8 for SciBERT, 9 for Bio_ClinicalBERT);
   * `last`: the export's last_hidden_state, for an export cut to the protocol's layer.
   */
  bertscoreLayer?: number | 'last';
  /** Treat every task's data as restricted (the MIMIC-derived tasks always are). */
  restricted?: boolean;
  /** Store hashes and lengths instead of prompt, output, gold and error text (a run of its own). */
  redact?: boolean;
  /** Not supported here yet: refused rather than ignored. */
  dryRun?: boolean;
  /** This machine's share of the run (`medbench merge` joins the shards' stores). */
  shard?: Shard;
}

/** What of a CLUE run is restricted, and why; undefined when nothing is. */
function clueRestriction(tasks: readonly ClueTaskName[], marked: boolean): DataRestriction | undefined {
  const mimic = tasks.flatMap((task) => MIMIC_DERIVED_TASKS[task] ?? []);
  if (mimic.length > 0)
    return {
      what: `CLUE ${mimic.join(', ')}`,
      why: 'derived from MIMIC, PhysioNet credentialed data',
    };
  return marked ? { what: `CLUE ${tasks.join(', ')}`, why: 'marked restricted (--restricted)' } : undefined;
}

/** Baseline results, computed in batches through the run pipeline (resumable, Ctrl-C safe). */
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
    batches: chunks(options.samples, 256).map((batch) => ({
      ids: batch.map((sample) => sample.id),
      compute: () =>
        batch.flatMap((sample) => {
          const outcome = options.baseline(sample);
          if (!outcome) skipped++;
          return outcome
            ? [resultRecord({ runId: options.run.id, sample, prompt: null, promptTokens: null, outcome })]
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

/** The protocol and the tasks to run: those asked for whose official file is in --data. */
function clueTasksIn(options: RunClueOptions, output: CommandOutput) {
  const protocol: ClueProtocol =
    CLUE_PROTOCOL[parseChoiceList('--protocol', options.protocol ?? 'paper-2024', CLUE_PROTOCOLS)[0]!];
  const { files, missing } = findClueFiles(options.data);
  const wanted = options.tasks ? parseChoiceList('--tasks', options.tasks, CLUE_TASKS) : [...CLUE_TASKS];
  for (const task of missing.filter((name) => wanted.includes(name))) {
    output.stderr(`skipped ${task}: no official file for it in ${options.data}\n`);
  }
  const tasks = wanted.filter((task) => files[task] !== undefined);
  if (tasks.length === 0) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `No CLUE task file in ${options.data}.`,
      hint: 'Expected the official names: mli_test_v1.jsonl, BioNLP2023-1A-Test.csv, MeQSum_*.xlsx, benchmark_v5.json, MeDiSumQA*.json, MeDiSumCode*.json.',
    });
  }
  return { protocol, files, tasks };
}

/** UMLS, ICD-10 and BERTScore resources, each read and checked before anything runs. */
async function clueResources(
  options: RunClueOptions,
  bertscore: ReturnType<typeof planBertScore>,
): Promise<ClueResources> {
  return {
    ...(options.umls
      ? {
          umls: new ConceptMatcher(
            await loadMrconso(options.umls, {
              ...(options.umlsLanguage ? { language: options.umlsLanguage } : {}),
            }),
          ),
        }
      : {}),
    // Without --icd10, the `icd10` package's own table (shipped), which the scripts consulted.
    icd10Codes: options.icd10 ? loadIcd10Codes(options.icd10) : new Set(shippedIcdTables().icd10.keys()),
    bertscore: Object.fromEntries(
      Object.entries(bertscore.tasks).map(([task, entry]) => [task, `${entry.encoder} layer ${entry.layer}`]),
    ),
  };
}

/** LongHealth cuts documents with the model's tokenizer: one that can encode and decode. */
function checkLongHealthTokenizer(model: ModelBinding | undefined, tasks: readonly ClueTaskName[]): void {
  if (!model || !tasks.includes('longhealth') || (model.tokenizer?.encode && model.tokenizer.decode)) return;
  const usable = listTokenizers().filter((entry) => entry.cuts);
  throw new MedbenchError({
    code: 'TOKENIZER_UNKNOWN',
    message: `LongHealth cuts its documents at the token budget with the target model's tokenizer, and ${
      model.tokenizer
        ? `"${model.tokenizer.name}" only counts tokens (it cannot encode and decode)`
        : `medbench has no tokenizer for "${model.modelId}"`
    }.`,
    hint: `Give the model one medbench can cut with: --tokenizer ${usable.map((entry) => entry.name).join(', ')} (${usable.map((entry) => `${entry.name}: ${entry.description}`).join('; ')}), or tokenizer in medbench.config.json; or leave LongHealth out (--tasks).`,
  });
}

/** The run's record: its identity covers the samples, the model or baseline and every setting that moves a score. */
function clueRun(options: {
  command: RunClueOptions;
  samples: readonly Sample[];
  model: ModelBinding | undefined;
  protocol: ClueProtocol;
  tasks: readonly ClueTaskName[];
  kind: ClueModelKind;
  prefill: string;
  resources: ClueResources;
  missingBertScore: ReturnType<typeof planBertScore>['missing'];
  /** What --limit left out; undefined for a full run. */
  limit: SampleLimit | undefined;
}): RunRecord {
  const { command, model, kind } = options;
  const parameters = {
    protocol: { name: options.protocol.name, commit: options.protocol.commit },
    tasks: options.tasks,
    model: { instruct: kind.instruct, systemRole: kind.systemRole },
    prefill: options.prefill,
    longhealthSeed: command.seed ?? 1,
    limit: options.limit ?? null,
    umls: command.umls
      ? { source: 'mrconso', file: command.umls, language: command.umlsLanguage ?? 'ENG' }
      : null,
    icd10: command.icd10 ?? null,
    bertscore: options.resources.bertscore,
    notComputed: notComputed(options.resources, options.tasks, options.missingBertScore),
    ...(model ? { generation: model.parameters } : {}),
    ...(command.redact ? { redacted: true } : {}),
  };
  const identity = model ? describeModel(model) : { provider: 'baseline', modelId: 'clue-baseline' };
  return runRecordOf({
    identity: {
      datasetId: sha256(options.samples.map((sample) => JSON.stringify(sample)).join('\n')),
      model: model ? modelRunIdentity(model) : identity,
      parameters,
      scoringMode: 'standard',
    },
    suite: 'clue',
    label: model?.label ?? command.label ?? 'baseline',
    datasetPath: command.data,
    description: identity,
  });
}

/**
 * What the data allow, checked before any file is built into prompts, anything sent or stored:
 * restricted tasks go only to approved endpoints, and --redact excludes BERTScore (computed later
 * from stored outputs). Returns the restriction the run carries.
 */
function checkDataUse(
  options: RunClueOptions,
  tasks: readonly ClueTaskName[],
  bertscore: ReturnType<typeof planBertScore>,
  model: ModelBinding | undefined,
): DataRestriction | undefined {
  if (options.dryRun)
    throw new MedbenchError({
      code: 'USAGE',
      message: '--dry-run is not supported by `run clue` yet (it is by `run --dataset`).',
    });
  if (options.redact && Object.keys(bertscore.tasks).length > 0)
    throw new MedbenchError({
      code: 'USAGE',
      message:
        '--redact cannot be combined with --bertscore-model: BERTScore is computed after the run from the stored outputs, which --redact does not keep.',
      hint: 'Run without --bertscore-model (BERTScore is then reported as not computed).',
    });
  const restricted = clueRestriction(tasks, options.restricted === true);
  if (model) checkRestrictedData(model, restricted);
  return restricted;
}

/** How the prompts are made for the model (the baseline sends none: an instruct model's). */
function kindOf(model: ModelBinding | undefined): ClueModelKind {
  return model
    ? { instruct: model.instruct, systemRole: model.systemRole }
    : { instruct: true, systemRole: true };
}

/** `medbench run clue`: every CLUE task whose official file is in --data, on one model or the baseline. */
export async function runClueCommand(options: RunClueOptions, output: CommandOutput): Promise<void> {
  const { protocol, files, tasks } = clueTasksIn(options, output);
  const bertscore = planBertScore({
    protocol,
    tasks,
    folders: bertscoreFolders(options.bertscoreModel),
    ...(options.bertscoreLayer !== undefined ? { layer: options.bertscoreLayer } : {}),
  });
  const { config } = await loadConfig(options.config);
  const model = ['baseline', 'baseline:clue'].includes(options.model)
    ? undefined
    : await bindModel({ spec: options.model, config, overrides: options });
  const restricted = checkDataUse(options, tasks, bertscore, model);
  const encoders = await openBertScoreEncoders(bertscore);
  const resources = await clueResources(options, bertscore);
  const kind = kindOf(model);
  checkLongHealthTokenizer(model, tasks);
  // Every file is read and validated before anything runs or is stored.
  const build = await clueSuite.build!({
    tasks,
    files,
    context: { protocol, model: kind, contextWindow: model?.contextWindow },
    tokenizer: model?.tokenizer,
    seed: options.seed ?? 1,
  });
  // --limit: the first n items of each task, in the protocol's order (as every run command).
  const { kept: samples, limit } = firstPerTask([...build.samples], (sample) => sample.task, options.limit);
  const { prefill, warning: prefillWarning } = model
    ? fitPrefillWarned(samples, model.endpoints[0]!.model.capabilities)
    : { prefill: 'none (baseline)', warning: undefined };
  const run = clueRun({
    command: options,
    samples,
    model,
    protocol,
    tasks,
    kind,
    prefill,
    resources,
    missingBertScore: bertscore.missing,
    limit,
  });
  const scoring = { protocol, modelId: model?.modelId ?? 'baseline' };
  const store = new Store(storePathIn(resolveHome(options.home)));
  const { hooks, dispose } = terminalSession(output);
  try {
    if (!model) {
      const baseline = createClueBaseline({ resources, scoring, codePool: build.record.codePool, seed: 1 });
      const redactText = options.redact === true;
      const share = samplesOfShard(samples, options.shard);
      const summary = await runBaseline({ store, run, samples: share, baseline, hooks, redactText });
      if (summary.interrupted) return;
    } else {
      for (const note of [prefillWarning, tokenCountingNote(model), model.notice])
        if (note) hooks.onNotice?.(note);
      const tasks = createClueTasks(resources, scoring);
      hooks.onSummary?.(
        await runModel({
          store,
          run,
          // The run (its id) is the whole run's: the shards' stores merge into one run.
          samples: samplesOfShard(samples, options.shard),
          tasks,
          model,
          retry: options,
          defaults: config.defaults,
          hooks,
          ...(restricted ? { restricted } : {}),
          ...(options.redact ? { redactText: true } : {}),
        }),
      );
    }
    await addBertScores(store, run.id, bertscore, encoders, output);
    suiteLeaderboard(store, clueSuite, { save: true });
    hooks.onReport?.(storedRunText(store, clueSuite, run.id));
  } finally {
    dispose();
    store.close();
  }
}
