import { bindModel, modelConfigFromSpec } from '../../../compose/bind-model.js';
import { loadConfig, type MedbenchConfig } from '../../../compose/config.js';
import { resolveHome, storePathIn } from '../../../compose/home.js';
import { checkRestrictedData } from '../../../compose/restricted-data.js';
import { type RetryOptions, type RunHooks, runModel } from '../../../compose/run-model.js';
import { recordedRestriction } from '../../../compose/run-recipe.js';
import { MedbenchError } from '../../../core/errors.js';
import type { RunRecord } from '../../../core/run-record.js';
import type { Sample } from '../../../core/sample.js';
import type { JuryAggregation } from '../../../metrics/judge/jury.js';
import { providerNamed } from '../../../providers/registry.js';
import { describeModel, type ModelBinding, modelRunIdentity } from '../../../runner/model-binding.js';
import { runRecordOf } from '../../../runner/run-identity.js';
import type { RunSummary } from '../../../runner/run-samples.js';
import { Store, sha256 } from '../../../store/store.js';
import { suiteLeaderboard } from '../../../store/suite-leaderboard.js';
import { rubricsFor } from '../judge-rubrics.js';
import {
  JUDGE_MAX_OUTPUT_TOKENS,
  JUDGE_SUITE,
  JUDGED_TASKS,
  type JudgedTask,
  judgeSample,
  judgeSystemPrompt,
  judgeTask,
} from '../judge-task.js';
import { clueReview } from '../review.js';
import { clueSuite } from '../suite.js';
import { clueRestriction } from './clue-inputs.js';
import { clueRun } from './clue-umls-entities.js';
import { type JudgeSummary, writeJuryScores } from './judge-jury.js';

/** The seed every judge request carries where the provider takes one (docs/judge.md). */
export const JUDGE_SEED = 20261127;

export interface JudgeClueRequest extends RetryOptions {
  /** The CLUE run to grade (an id prefix). */
  run: string;
  /** The jury: one or more model specs, a comma list. */
  model: string;
  /** Rubric files replacing the shipped ones of their tasks. */
  rubric?: string[];
  aggregation?: JuryAggregation;
  /** The data is restricted beyond CLUE's MIMIC-derived tasks (as `run --restricted`). */
  restricted?: boolean;
  config?: string;
  home?: string;
  concurrency?: number;
  apiKeyEnv?: string;
  maxOutputTokens?: number;
  temperature?: number;
  contextWindow?: number;
  tokenizer?: string;
  systemRole?: boolean;
  promptCache?: boolean;
}

/** A judge as the runner uses it: temperature 0, and a seed where its provider takes one. */
async function bindJudge(
  spec: string,
  config: MedbenchConfig,
  request: JudgeClueRequest,
): Promise<ModelBinding> {
  const modelConfig = modelConfigFromSpec(spec, config);
  const binding = await bindModel({
    spec,
    config,
    overrides: {
      ...request,
      temperature: 0,
      maxOutputTokens: request.maxOutputTokens ?? modelConfig.maxOutputTokens ?? JUDGE_MAX_OUTPUT_TOKENS,
    },
  });
  const provider = providerNamed(modelConfig.provider);
  const takesSeed =
    provider !== undefined &&
    provider.generationSettings !== 'ignored' &&
    'seed' in provider.generationSettings;
  const parameters = { ...binding.parameters, temperature: 0 };
  return takesSeed
    ? { ...binding, parameters: { seed: JUDGE_SEED, ...parameters } }
    : { ...binding, parameters };
}

/** The judge samples of a run: each answered item of a judged task, with what the model read, the reference and its answer. */
function judgeSamplesOf(store: Store, run: RunRecord, rubrics: ReturnType<typeof rubricsFor>): Sample[] {
  return JUDGED_TASKS.flatMap((task) =>
    store.results(run.id, { task }).flatMap((result) => {
      const item = clueReview.itemOf(
        result,
        (result.promptHash && store.getPrompt(result.promptHash)) || null,
      );
      return item
        ? [
            judgeSample({
              sampleId: result.sampleId,
              task,
              params: result.params,
              rubric: rubrics[task].rubric,
              ...item,
            }),
          ]
        : [];
    }),
  );
}

/**
 * What a judge run keeps of each task's rubric: its version and digest, and the system message
 * every request of the task carries, word for word (the per-sample part is each result's prompt).
 */
function rubricRecords(tasks: readonly JudgedTask[], rubrics: ReturnType<typeof rubricsFor>) {
  return Object.fromEntries(
    tasks.map((task) => {
      const { rubric } = rubrics[task];
      return [
        task,
        {
          version: rubric.version,
          sha256: sha256(JSON.stringify(rubric)),
          systemPrompt: judgeSystemPrompt(rubric),
        },
      ];
    }),
  );
}

/** A judge's run of its own: its id covers the graded run, the judge, its settings and the rubrics. */
function judgeRunRecord(
  run: RunRecord,
  judge: ModelBinding,
  samples: readonly Sample[],
  rubricDigests: unknown,
): RunRecord {
  return runRecordOf({
    identity: {
      datasetId: sha256(samples.map((sample) => JSON.stringify(sample)).join('\n')),
      model: modelRunIdentity(judge),
      parameters: { judgedRun: run.id, rubrics: rubricDigests, generation: judge.parameters },
      scoringMode: 'standard',
    },
    suite: JUDGE_SUITE,
    label: judge.label,
    datasetPath: null,
    description: describeModel(judge),
  });
}

/** The judges' run summaries as one: counts, tokens and cost added, stopped if any judge was. */
export function jurySummary(summaries: readonly RunSummary[]): RunSummary {
  const add = (pick: (summary: RunSummary) => number) =>
    summaries.reduce((sum, summary) => sum + pick(summary), 0);
  const errorKinds: Record<string, number> = {};
  for (const summary of summaries)
    for (const [kind, count] of Object.entries(summary.errorKinds))
      errorKinds[kind] = (errorKinds[kind] ?? 0) + count;
  return {
    total: add((summary) => summary.total),
    alreadyDone: add((summary) => summary.alreadyDone),
    done: add((summary) => summary.done),
    cached: add((summary) => summary.cached),
    tooLong: add((summary) => summary.tooLong),
    errors: add((summary) => summary.errors),
    errorKinds,
    errorExamples: Object.assign({}, ...summaries.map((summary) => summary.errorExamples)),
    inputTokens: add((summary) => summary.inputTokens),
    outputTokens: add((summary) => summary.outputTokens),
    cost: summaries.some((summary) => summary.cost === null) ? null : add((summary) => summary.cost ?? 0),
    startedAt: Math.min(...summaries.map((summary) => summary.startedAt)),
    interrupted: summaries.some((summary) => summary.interrupted),
    failedFast: summaries.find((summary) => summary.failedFast)?.failedFast,
    costCapReached: summaries.some((summary) => summary.costCapReached),
  };
}

/** The jury's specs from `--model`: at least one, none twice (a judge counted twice would weigh double). */
export function jurySpecs(model: string): string[] {
  const specs = model
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  const twice = specs.find((spec, index) => specs.indexOf(spec) !== index);
  if (specs.length === 0 || twice !== undefined)
    throw new MedbenchError({
      code: 'USAGE',
      message:
        specs.length === 0
          ? `--model "${model}" names no judge.`
          : `--model names the judge "${twice}" twice; each judge of a jury counts once.`,
      hint: 'Give one model spec, or a comma list of different ones (--model judge-a,judge-b).',
    });
  return specs;
}

/** Refuses what cannot be judged before any judge is bound: a redacted run, a non-zero temperature. */
function checkJudgeable(run: RunRecord, request: JudgeClueRequest): void {
  if (run.parameters.redacted === true)
    throw new MedbenchError({
      code: 'USAGE',
      message: `Run ${run.id} was made with --redact: its outputs are not stored, so there is nothing to judge.`,
      hint: 'Judge a run made without --redact.',
    });
  if (request.temperature !== undefined && request.temperature !== 0)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--temperature ${request.temperature}: a judge runs at temperature 0.`,
      hint: 'Leave out --temperature.',
    });
}

/**
 * `medbench judge <run> --model <judge>[,<judge>…]`: grades a stored CLUE run's free-text answers
 * (MeQSum, Problem Summary, MeDiSumQA) against each task's rubric with a jury of judge models,
 * each a run of its own through the runner (cache, resume, --max-cost, restricted-data rules), and
 * writes the jury's score as the `judge` metric beside the papers' metrics (docs/judge.md).
 */
export async function judgeClue(request: JudgeClueRequest, hooks: RunHooks = {}): Promise<JudgeSummary> {
  const { config } = await loadConfig(request.config);
  const rubrics = rubricsFor(request.rubric);
  const store = new Store(storePathIn(resolveHome(request.home)));
  try {
    const run = clueRun(store, request.run);
    checkJudgeable(run, request);
    const samples = judgeSamplesOf(store, run, rubrics);
    if (samples.length === 0)
      throw new MedbenchError({
        code: 'DATA_NOT_FOUND',
        message: `Run ${run.id} has no answered ${JUDGED_TASKS.join(', ')} item to judge.`,
        hint: 'Judge a CLUE run of the free-text tasks (run clue --tasks meqsum,problem-summary,medisumqa).',
      });
    const tasks = [...new Set(samples.map((sample) => sample.task as JudgedTask))];
    // Marked restricted on the run (`run clue --restricted`, recorded in its manifest) or here.
    const marked = request.restricted === true || recordedRestriction(store, run.id)?.marked === true;
    const restricted = clueRestriction(tasks, marked);
    const specs = jurySpecs(request.model);
    const judges: ModelBinding[] = [];
    for (const spec of specs) judges.push(await bindJudge(spec, config, request));
    // Every judge is checked before any is sent anything.
    for (const judge of judges) checkRestrictedData(judge, restricted);
    const digests = rubricRecords(tasks, rubrics);
    const judgeTasks = Object.fromEntries(tasks.map((task) => [task, judgeTask(task)]));
    const judgeRuns: RunRecord[] = [];
    const summaries: RunSummary[] = [];
    for (const judge of judges) {
      // --max-cost caps the whole jury: each judge gets what the judges before it left.
      const spent = summaries.reduce((sum, summary) => sum + (summary.cost ?? 0), 0);
      const judgeRun = judgeRunRecord(run, judge, samples, digests);
      hooks.onNotice?.(
        `Judge ${judge.label}: ${samples.length} answers of run ${run.id} (judge run ${judgeRun.id}).`,
      );
      const summary = await runModel({
        store,
        run: judgeRun,
        samples,
        tasks: judgeTasks,
        model: judge,
        retry: {
          ...request,
          ...(request.maxCost !== undefined ? { maxCost: Math.max(0, request.maxCost - spent) } : {}),
        },
        defaults: config.defaults,
        hooks,
        ...(restricted ? { restricted } : {}),
      });
      if (store.getRun(judgeRun.id)) store.judgeRuns.link(judgeRun.id, run.id);
      judgeRuns.push(judgeRun);
      summaries.push(summary);
      if (summary.interrupted || summary.costCapReached) break;
    }
    // The jury's counts, errors and cost as a run prints them (and its exit code).
    if (summaries.length > 0) hooks.onSummary?.(jurySummary(summaries));
    const complete =
      judgeRuns.length === judges.length &&
      summaries.every((summary) => !summary.interrupted && !summary.costCapReached);
    const outcome = writeJuryScores(store, run, {
      judgeRuns,
      rubrics,
      aggregation: request.aggregation ?? 'mean',
      complete,
    });
    if (outcome.written) suiteLeaderboard(store, clueSuite, { save: true });
    return outcome;
  } finally {
    store.close();
  }
}
