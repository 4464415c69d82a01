import { MedbenchError } from '../../core/errors.js';
import type { Sample } from '../../core/sample.js';
import type { TokenEncoder } from '../../core/token-encoder.js';
import { ConceptMatcher } from '../../metrics/concept-matcher.js';
import { LocalOnnxTokenEncoder } from '../../providers/local-onnx-token-encoder.js';
import { buildClueReport, renderClueText } from '../../report/clue-report.js';
import { canonicalJson } from '../../runner/canonical-json.js';
import { describeModel } from '../../runner/model-binding.js';
import { DEFAULT_RETRY_POLICY } from '../../runner/retry.js';
import { runSamples } from '../../runner/run-samples.js';
import { NO_MODEL_CALL, type RunRecord, Store, sha256 } from '../../store/store.js';
import { bertScoreF1s } from '../../suites/clue/bertscore-pass.js';
import {
  buildLongHealth,
  buildMeDiSumCode,
  buildMeDiSumQa,
  buildMedNli,
  buildMeQSum,
  buildProblemSummary,
} from '../../suites/clue/build-clue-samples.js';
import { createClueBaseline } from '../../suites/clue/clue-baseline.js';
import { type ClueResources, createClueTasks, notComputed } from '../../suites/clue/clue-tasks.js';
import {
  CLUE_TASKS,
  type ClueTaskName,
  findClueFiles,
  loadIcd10Codes,
  loadLongHealth,
  loadMeDiSumCode,
  loadMeDiSumQa,
  loadMedNli,
  loadMeQSum,
  loadProblemSummary,
} from '../../suites/clue/load-tasks.js';
import { loadMrconso } from '../../suites/clue/mrconso.js';
import type { ShuffleMode } from '../../suites/clue/shuffle.js';
import { loadConfig } from '../config.js';
import { resolveHome, storePathIn } from '../home.js';
import { bindModel, type ModelOverrides } from '../model-spec.js';
import { parseChoiceList } from '../parse-options.js';
import { progressReporter } from '../progress-bar.js';
import type { CommandOutput } from './build-medodyssey.js';

export interface RunClueOptions extends ModelOverrides {
  data: string;
  model: string;
  config?: string;
  home?: string;
  tasks?: string;
  limit?: number;
  umls?: string;
  umlsLanguage?: string;
  icd10?: string;
  pythonCompatibleShuffle?: boolean;
  seed?: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** A local ONNX encoder folder for BERTScore (the paper names a clinical BERT). */
  bertscoreModel?: string;
  bertscoreMaxLength?: number;
  /** Read this hidden layer (output hidden_states.<n>) instead of the export's last_hidden_state. */
  bertscoreLayer?: number;
}

/**
 * Adds BERTScore F1 to this run's generation results that lack it (ok ones; failed ones already
 * score 0), in one transaction. Resumed runs only encode what is new.
 */
async function addBertScores(
  store: Store,
  runId: string,
  encoder: TokenEncoder,
  output: CommandOutput,
): Promise<void> {
  const pending = store
    .results(runId)
    .filter(
      (result) => result.status === 'ok' && 'rougeL' in result.scores && !('bertscore' in result.scores),
    );
  if (pending.length === 0) return;
  const started = Date.now();
  const f1s = await bertScoreF1s(
    pending.map((result) => ({
      prediction: typeof result.parsed === 'string' ? result.parsed : (result.rawOutput ?? ''),
      reference: (result.gold as { reference: string }).reference,
    })),
    encoder,
  );
  store.transaction(() => {
    pending.forEach((result, index) => {
      store.updateScores(runId, result.sampleId, { ...result.scores, bertscore: f1s[index]! });
    });
  });
  output.stderr(
    `BERTScore (${encoder.name}) for ${pending.length} items in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`,
  );
}

/** Tokens of a LongHealth prompt kept free of documents: instructions, question, options, answer. */
const LONGHEALTH_RESERVE_TOKENS = 2000;

/** `medbench run clue`: every CLUE task whose official file is in --data, on one model or the baseline. */
export async function runClueCommand(options: RunClueOptions, output: CommandOutput): Promise<void> {
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
  const bertscoreEncoder = options.bertscoreModel
    ? new LocalOnnxTokenEncoder({
        folder: options.bertscoreModel,
        ...(options.bertscoreMaxLength ? { maxLength: options.bertscoreMaxLength } : {}),
        ...(options.bertscoreLayer !== undefined ? { layer: options.bertscoreLayer } : {}),
      })
    : undefined;
  const resources: ClueResources = {
    ...(options.umls
      ? {
          umls: new ConceptMatcher(
            await loadMrconso(options.umls, {
              ...(options.umlsLanguage ? { language: options.umlsLanguage } : {}),
            }),
          ),
        }
      : {}),
    ...(options.icd10 ? { icd10Codes: loadIcd10Codes(options.icd10) } : {}),
    ...(bertscoreEncoder ? { bertscore: `${bertscoreEncoder.name} ${bertscoreEncoder.revision}` } : {}),
  };
  const isBaseline = options.model === 'baseline' || options.model === 'baseline:clue';
  const { config } = await loadConfig(options.config);
  const model = isBaseline ? undefined : await bindModel({ spec: options.model, config, overrides: options });
  const shuffle = (task: ClueTaskName): ShuffleMode =>
    options.pythonCompatibleShuffle
      ? { kind: 'python', seed: Number(options.seed ?? 1) }
      : { kind: 'seeded', seed: `${options.seed ?? 'medbench'}/${task}` };
  const budget =
    model?.tokenizer && model.contextWindow
      ? {
          tokenizer: model.tokenizer,
          documentTokens: model.contextWindow - model.parameters.maxOutputTokens - LONGHEALTH_RESERVE_TOKENS,
        }
      : undefined;

  // Every file is read and validated before anything runs or is stored.
  const samples: Sample[] = [];
  let codePool: string[] = [];
  for (const task of tasks) {
    const path = files[task]!;
    let built: Sample[];
    if (task === 'mednli') built = buildMedNli(loadMedNli(path), shuffle(task));
    else if (task === 'meqsum') built = buildMeQSum(loadMeQSum(path), shuffle(task));
    else if (task === 'problem-summary') built = buildProblemSummary(loadProblemSummary(path), shuffle(task));
    else if (task === 'medisumqa') built = buildMeDiSumQa(loadMeDiSumQa(path), shuffle(task));
    else if (task === 'medisumcode') {
      const items = loadMeDiSumCode(path);
      codePool = [...new Set(items.flatMap((item) => item.codes))].sort();
      built = buildMeDiSumCode(items, shuffle(task));
    } else built = buildLongHealth(loadLongHealth(path), shuffle(task), budget);
    samples.push(...(options.limit ? built.slice(0, options.limit) : built));
  }
  const datasetId = sha256(samples.map((sample) => JSON.stringify(sample)).join('\n'));
  const parameters = {
    tasks,
    shuffle: options.pythonCompatibleShuffle
      ? `python seed ${options.seed ?? 1}`
      : `seeded ${options.seed ?? 'medbench'}`,
    limit: options.limit ?? null,
    umls: options.umls ? { file: options.umls, language: options.umlsLanguage ?? 'ENG' } : null,
    icd10: options.icd10 ?? null,
    bertscore: resources.bertscore ?? null,
    notComputed: notComputed(resources),
    ...(model ? { generation: model.parameters } : {}),
  };
  const identity = model ? describeModel(model) : { provider: 'baseline', modelId: 'clue-baseline' };
  const run: RunRecord = {
    id: sha256(canonicalJson({ datasetId, model: { ...identity, endpoints: undefined }, parameters })).slice(
      0,
      16,
    ),
    suite: 'clue',
    label: model?.label ?? 'baseline',
    datasetId,
    datasetPath: options.data,
    model: identity,
    parameters,
    source: 'medbench',
    scoringMode: 'standard',
    createdAt: new Date().toISOString(),
  };
  const store = new Store(storePathIn(resolveHome(options.home)));
  try {
    if (!model) {
      const baseline = createClueBaseline({ resources, codePool, seed: 1 });
      let skipped = 0;
      store.transaction(() => {
        store.deleteRun(run.id);
        store.ensureRun(run);
        for (const sample of samples) {
          const result = baseline(sample);
          if (!result) {
            skipped++;
            continue;
          }
          store.putResult({
            runId: run.id,
            sampleId: sample.id,
            task: sample.task,
            params: sample.params,
            gold: sample.gold,
            prompt: null,
            promptChars: sample.promptChars,
            promptTokens: null,
            ...result,
            ...NO_MODEL_CALL,
          });
        }
      });
      if (skipped > 0)
        output.stderr(
          `baseline: ${skipped} Problem Summary items not computed (the baseline needs --umls)\n`,
        );
    } else {
      const progress = progressReporter();
      const summary = await runSamples({
        store,
        run,
        samples,
        tasks: createClueTasks(resources),
        model,
        retry: {
          ...DEFAULT_RETRY_POLICY,
          ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
        },
        timeoutMs: options.timeoutMs ?? 600_000,
        onProgress: (state) => progress.update(state),
      });
      progress.finish();
      output.stderr(
        `Done: ${summary.done} new, ${summary.alreadyDone} from before, ${summary.cached} cached, ${summary.errors} errors.\n`,
      );
    }
    if (bertscoreEncoder) await addBertScores(store, run.id, bertscoreEncoder, output);
    output.stdout(`${renderClueText(buildClueReport([{ run, results: store.results(run.id) }]))}\n`);
  } finally {
    store.close();
  }
}
