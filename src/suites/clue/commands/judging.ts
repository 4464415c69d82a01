import { bindModel, modelConfigFromSpec } from '../../../compose/bind-model.js';
import { loadConfig, type MedbenchConfig } from '../../../compose/config.js';
import { resolveHome, storePathIn } from '../../../compose/home.js';
import { checkRestrictedData } from '../../../compose/restricted-data.js';
import { type RetryOptions, type RunHooks, runModel } from '../../../compose/run-model.js';
import { recordedRestriction } from '../../../compose/run-recipe.js';
import type { RunRecord } from '../../../core/run-record.js';
import type { Sample } from '../../../core/sample.js';
import type { Task } from '../../../core/task.js';
import { providerNamed } from '../../../providers/registry.js';
import { describeModel, type ModelBinding, modelRunIdentity } from '../../../runner/model-binding.js';
import { runRecordOf } from '../../../runner/run-identity.js';
import type { RunSummary } from '../../../runner/run-samples.js';
import { Store, sha256 } from '../../../store/store.js';
import { rubricsFor } from '../judge-rubrics.js';
import {
  JUDGE_MAX_OUTPUT_TOKENS,
  JUDGE_SUITE,
  type JudgedTask,
  judgeSystemPrompt,
  judgeTask,
} from '../judge-task.js';
import { clueRestriction } from './clue-inputs.js';
import { clueRun } from './clue-umls-entities.js';
import { checkJudgeable, type JudgeItem, judgeItemsOf, jurySpecs } from './judge-items.js';

/** The seed every judge request carries where the provider takes one (docs/judge.md). */
export const JUDGE_SEED = 20261127;

/** What every judging command takes: the graded run, the judges, rubrics, and a model's runner options. */
export interface JudgeModelRequest extends RetryOptions {
  /** The CLUE run to grade (an id prefix). */
  run: string;
  /** The jury: one or more model specs, a comma list. */
  model: string;
  /** Rubric files replacing the shipped ones of their tasks. */
  rubric?: string[];
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
  request: JudgeModelRequest,
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

/** A judging under way: the store (close it), the graded run, its answered items and the bound judges. */
export interface Judging {
  config: MedbenchConfig;
  store: Store;
  run: RunRecord;
  rubrics: ReturnType<typeof rubricsFor>;
  /** The answered items of the judged tasks, as the judge reads them. */
  items: JudgeItem[];
  tasks: JudgedTask[];
  restricted: ReturnType<typeof clueRestriction>;
  judges: ModelBinding[];
  rubricDigests: ReturnType<typeof rubricRecords>;
  judgeTasks: Record<string, Task<unknown>>;
}

/**
 * Reads the graded run and binds every judge, refusing what cannot be judged (a redacted run, no
 * answered item, a temperature, a judge the data may not go to) before anything is sent.
 */
export async function openJudging(request: JudgeModelRequest): Promise<Judging> {
  const { config } = await loadConfig(request.config);
  const rubrics = rubricsFor(request.rubric);
  const store = new Store(storePathIn(resolveHome(request.home)));
  try {
    const run = clueRun(store, request.run);
    checkJudgeable(run, request);
    const items = judgeItemsOf(store, run);
    const tasks = [...new Set(items.map((item) => item.task))];
    // Marked restricted on the run (`run clue --restricted`, recorded in its manifest) or here.
    const marked = request.restricted === true || recordedRestriction(store, run.id)?.marked === true;
    const restricted = clueRestriction(tasks, marked);
    const judges: ModelBinding[] = [];
    for (const spec of jurySpecs(request.model)) judges.push(await bindJudge(spec, config, request));
    // Every judge is checked before any is sent anything.
    for (const judge of judges) checkRestrictedData(judge, restricted);
    const judgeTasks = Object.fromEntries(tasks.map((task) => [task, judgeTask(task) as Task<unknown>]));
    return {
      config,
      store,
      run,
      rubrics,
      items,
      tasks,
      restricted,
      judges,
      rubricDigests: rubricRecords(tasks, rubrics),
      judgeTasks,
    };
  } catch (error) {
    store.close();
    throw error;
  }
}

/** One judge run to make: the judge, its samples, and the probe it is (none: the plain judging). */
export interface JudgeRunPlan {
  judge: ModelBinding;
  samples: readonly Sample[];
  /** What makes a probe's run another run than the plain one (`{ name: 'swap' }` …); absent: plain. */
  probe?: Record<string, unknown>;
}

/** A judge's run of its own: its id covers the graded run, the judge, its settings, the rubrics (and the probe). */
function judgeRunRecord(judging: Judging, plan: JudgeRunPlan): RunRecord {
  const { judge, samples, probe } = plan;
  return runRecordOf({
    identity: {
      datasetId: sha256(samples.map((sample) => JSON.stringify(sample)).join('\n')),
      model: modelRunIdentity(judge),
      parameters: {
        judgedRun: judging.run.id,
        rubrics: judging.rubricDigests,
        generation: judge.parameters,
        ...(probe ? { probe } : {}),
      },
      scoringMode: 'standard',
    },
    suite: JUDGE_SUITE,
    label: probe ? `${judge.label} (probe ${String(probe.name)})` : judge.label,
    datasetPath: null,
    description: describeModel(judge),
  });
}

/** The judge runs made (each linked to the graded run), their summaries, and whether all finished. */
export interface JudgeRunsOutcome {
  judgeRuns: RunRecord[];
  summaries: RunSummary[];
  complete: boolean;
}

/**
 * Makes the planned judge runs in order through the runner (cache, resume, restricted data),
 * `--max-cost` capping them all together; stops at the first one stopped (Ctrl-C, the cap).
 */
export async function runJudges(
  judging: Judging,
  plans: readonly JudgeRunPlan[],
  request: JudgeModelRequest,
  hooks: RunHooks,
): Promise<JudgeRunsOutcome> {
  const { store, run, restricted } = judging;
  const judgeRuns: RunRecord[] = [];
  const summaries: RunSummary[] = [];
  for (const plan of plans) {
    // --max-cost caps everything: each judge run gets what the runs before it left.
    const spent = summaries.reduce((sum, summary) => sum + (summary.cost ?? 0), 0);
    const judgeRun = judgeRunRecord(judging, plan);
    hooks.onNotice?.(
      `Judge ${judgeRun.label}: ${plan.samples.length} answers of run ${run.id} (judge run ${judgeRun.id}).`,
    );
    const summary = await runModel({
      store,
      run: judgeRun,
      samples: plan.samples,
      tasks: judging.judgeTasks,
      model: plan.judge,
      retry: {
        ...request,
        ...(request.maxCost !== undefined ? { maxCost: Math.max(0, request.maxCost - spent) } : {}),
      },
      defaults: judging.config.defaults,
      hooks,
      ...(restricted ? { restricted } : {}),
    });
    if (store.getRun(judgeRun.id)) store.judgeRuns.link(judgeRun.id, run.id);
    judgeRuns.push(judgeRun);
    summaries.push(summary);
    if (summary.interrupted || summary.costCapReached) break;
  }
  // The counts, errors and cost as a run prints them (and its exit code).
  if (summaries.length > 0) hooks.onSummary?.(jurySummary(summaries));
  const complete =
    judgeRuns.length === plans.length &&
    summaries.every((summary) => !summary.interrupted && !summary.costCapReached);
  return { judgeRuns, summaries, complete };
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
    errorMeaning:
      "A judge's request without an answer leaves that judge out of the sample's jury (a sample no judge scored is unscored, never 0)",
  };
}
