import { epochSettingsOf } from '../core/epochs.js';
import { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { Sample } from '../core/sample.js';
import { describeSampleLimit, type SampleLimit } from '../core/sample-limit.js';
import type { Suite } from '../core/suite.js';
import type { Task } from '../core/task.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { watchModelVersions } from '../runner/model-versions.js';
import type { ComputedRunSummary } from '../runner/run-computed.js';
import { type RunSummary, startProgress } from '../runner/run-samples.js';
import { type Shard, samplesOfShard } from '../runner/shard.js';
import { Store } from '../store/store.js';
import { suiteLeaderboard } from '../store/suite-leaderboard.js';
import { answerInBatches, batchDryRun, refuseOpenBatches } from './answer-in-batches.js';
import type { ModelOverrides } from './bind-model.js';
import type { MedbenchConfig } from './config.js';
import { dryRunReport } from './dry-run.js';
import { type EpochRequest, epochPlan } from './epoch-plan.js';
import { resolveHome, storePathIn } from './home.js';
import type { DataRestriction } from './restricted-data.js';
import { type RetryOptions, type RunHooks, runModel } from './run-model.js';
import { withRecipe } from './run-recipe.js';
import { storedRunText } from './stored-report.js';

/** What every run takes, whichever suite: the model, where the store is, and how much of the run to do. */
export interface RunRequest extends ModelOverrides, RetryOptions, EpochRequest {
  /** A model spec: a config name, baseline, openai:<m>, openai-compatible:<m>@<url> … */
  model: string;
  config?: string;
  home?: string;
  /** Only the first n items of each task, in the suite's order (a run of its own). */
  limit?: number;
  /** Treat the data as restricted: approved endpoints only. */
  restricted?: boolean;
  /** Store hashes and lengths instead of prompt, output, gold and error text (a run of its own). */
  redact?: boolean;
  /** Print what the run would send and cost at most (`hooks.onReport`); send and store nothing. */
  dryRun?: boolean;
  /** This machine's share of the run (`medbench merge` joins the shards' stores into one). */
  shard?: Shard;
  /** Hand the suite's report of the run to `hooks.onReport` when done (default true). */
  report?: boolean;
  /**
   * Send the requests through the provider's batch API (half price, answered within hours): each
   * batch is recorded in the store, waited for, and resumed by a re-run (docs/batch-mode.md).
   */
  batch?: boolean;
  /** `batch`: the longest wait between two looks at a running batch (default 60000; the first is 5 s or less, then doubling). */
  batchPollMs?: number;
}

/** A run of a suite with options of its own (`run <suite> --data …`): each suite's plan reads those it knows. */
export type SuiteRunRequest = RunRequest & { data?: string } & Record<string, unknown>;

/** Items a chat model answers, scored by the suite's tasks. */
export interface ModelWork {
  kind: 'model';
  model: ModelBinding;
  tasks: Readonly<Record<string, Task>>;
  defaults: MedbenchConfig['defaults'];
  restricted?: DataRestriction;
}

/** Items computed in this process or by a non-chat model (a baseline, a retriever), through `runComputed`. */
export interface ComputedWork {
  kind: 'computed';
  /** What a dry run says of the items left (nothing is sent to a paid chat model); `finishedIds`: those stored. */
  dryRun?(left: number, finished: number, finishedIds: ReadonlySet<string>): string;
  compute(options: {
    store: Store;
    run: RunRecord;
    samples: readonly Sample[];
    hooks: RunHooks;
    redactText: boolean;
  }): Promise<ComputedRunSummary>;
}

/** What a suite's plan hands `runSuite`: everything read and checked, nothing sent or stored yet. */
export interface RunPlan {
  suite: Suite;
  run: RunRecord;
  /** Every item of the run (of every shard), each with a stable id. */
  samples: readonly Sample[];
  /** What --limit left out; undefined for a full run. */
  limit: SampleLimit | undefined;
  /** Where the items came from, for the line that starts the run (a dataset file, a data folder). */
  source: string;
  /** The files the items were built from (hashed in the run's manifest; `rerun` checks them). */
  inputs?: ReadonlyArray<{ role: string; path: string; release?: Record<string, string> }>;
  work: ModelWork | ComputedWork;
  /** Lines to tell before the run (warnings of the plan). */
  notices?: readonly string[];
  /**
   * After a run that was not stopped: scores computed from what was stored (CLUE's BERTScore) in
   * `run` — the plan's, or with --epochs the epochs' run (`epochPlan`), whose id is another.
   */
  finish?(store: Store, hooks: RunHooks, run: RunRecord): Promise<void>;
  /** Releases what the plan opened (encoders, caches), whatever happened. */
  close?(): void | Promise<void>;
}

/** What `runSuite` did: the model run's summary, or the computed run's, or the dry run's. */
export type RunOutcome =
  | { kind: 'model'; run: RunRecord; summary: RunSummary }
  | { kind: 'computed'; run: RunRecord; summary: ComputedRunSummary }
  | { kind: 'dry-run'; run: RunRecord; summary: RunSummary };

/**
 * The one path every run takes, whichever suite: each sample K times (`--epochs`) → open the store → (dry run: say what would be
 * sent, and stop) → this shard's items through the model or the computation → the plan's finish
 * → save the suite's leaderboard → the suite's report of the run.
 */
export async function runSuite(
  planned: RunPlan,
  request: RunRequest,
  hooks: RunHooks = {},
): Promise<RunOutcome> {
  let store: Store | undefined;
  let plan = planned;
  try {
    // --epochs K: each sample K times, a run of its own (refused before the store is opened).
    plan = epochPlan(planned, request);
    store = new Store(storePathIn(resolveHome(request.home)));
    for (const notice of plan.notices ?? []) hooks.onNotice?.(notice);
    if (request.dryRun)
      return { kind: 'dry-run', run: plan.run, summary: await dryRun(plan, { store, request, hooks }) };
    // The run (its id) is the whole run's: the shards' stores merge into one run.
    const share = samplesOfShard(plan.samples, request.shard);
    hooks.onNotice?.(startLine(plan, share.length, request, store.path));
    // What the run is made from, for its manifest (once the run is stored).
    const context = { store, share, request, hooks };
    const outcome = await withRecipe(store, plan, request, () => work(plan, context));
    if (!outcome.summary.interrupted) await plan.finish?.(store, hooks, plan.run);
    // The viewer's leaderboard, saved for what the store now holds.
    suiteLeaderboard(store, plan.suite, { save: true });
    if (request.report !== false && store.getRun(plan.run.id))
      hooks.onReport?.(storedRunText(store, plan.suite, plan.run.id));
    return outcome;
  } finally {
    // What the plan opened is released even when the store cannot be opened.
    store?.close();
    await plan.close?.();
  }
}

async function work(
  plan: RunPlan,
  context: { store: Store; share: readonly Sample[]; request: RunRequest; hooks: RunHooks },
): Promise<RunOutcome> {
  const { store, share, request, hooks } = context;
  if (plan.work.kind === 'computed') {
    if (request.batch) throw batchRefused(plan);
    const summary = await plan.work.compute({
      store,
      run: plan.run,
      samples: share,
      hooks,
      redactText: request.redact === true,
    });
    return { kind: 'computed', run: plan.run, summary };
  }
  if (!request.batch) refuseOpenBatches(store, plan.run.id, plan.work.model);
  const batched = request.batch
    ? await answerInBatches({ store, runId: plan.run.id, work: plan.work, samples: share, request, hooks })
    : undefined;
  if (batched?.stopped) {
    // Stopped while batches run remotely: nothing is scored now, the re-run picks them up.
    const finished = store.finishedSampleIds(plan.run.id);
    const summary = emptySummary(
      share.length,
      share.filter((sample) => !finished.has(sample.id)).length,
      true,
    );
    hooks.onSummary?.(summary);
    return { kind: 'model', run: plan.run, summary };
  }
  const summary = await runModel({
    store,
    run: plan.run,
    samples: share,
    tasks: plan.work.tasks,
    // The model ids or versions the provider says answered, for the run's manifest.
    model: watchModelVersions(batched?.model ?? plan.work.model, (version) =>
      store.recipes.addModelVersion(plan.run.id, version),
    ),
    ...(batched ? { batchAnswers: batched.batchAnswers } : {}),
    retry: request,
    defaults: plan.work.defaults,
    hooks,
    ...(plan.work.restricted ? { restricted: plan.work.restricted } : {}),
    ...(request.redact ? { redactText: true } : {}),
  });
  hooks.onSummary?.(summary);
  return { kind: 'model', run: plan.run, summary };
}

/** `Run <id>: 12 of 40 samples (shard 1/3) of <source> on <label>, limited to … (store …).` */
function startLine(plan: RunPlan, share: number, request: RunRequest, storePath: string): string {
  const shown = request.shard
    ? `${share} of ${plan.samples.length} ${answers(plan)} (shard ${request.shard.index}/${request.shard.count}${request.shard.from ? `, from ${request.shard.from}` : ''})`
    : `${plan.samples.length} ${answers(plan)}`;
  const limit = plan.limit ? `, ${describeSampleLimit(plan.limit)}` : '';
  return `Run ${plan.run.id}: ${shown} of ${plan.source} on ${plan.run.label}${limit} (store ${storePath}).`;
}

/** `samples`, or with --epochs `sample epochs (20 samples × 3 epochs)`: what the run's items are. */
function answers(plan: RunPlan): string {
  const epochs = epochSettingsOf(plan.run);
  return epochs
    ? `sample epochs (${plan.samples.length / epochs.count} samples × ${epochs.count} epochs)`
    : 'samples';
}

/** What the run would send and cost at most, told through `onReport`; nothing is sent or stored. */
async function dryRun(
  plan: RunPlan,
  context: { store: Store; request: RunRequest; hooks: RunHooks },
): Promise<RunSummary> {
  const { store, request, hooks } = context;
  const finished = store.getRun(plan.run.id) ? store.finishedSampleIds(plan.run.id) : new Set<string>();
  const done = plan.samples.filter((sample) => finished.has(sample.id)).length;
  if (request.batch && plan.work.kind !== 'model') throw batchRefused(plan);
  let report =
    plan.work.kind === 'model'
      ? dryRunReport(plan.samples, plan.work.model, finished, hooks.onStage)
      : (plan.work.dryRun?.(plan.samples.length - done, done, finished) ??
        `${plan.samples.length - done} of ${plan.samples.length} items left to compute in this process; nothing is sent to a model.`);
  if (request.batch && plan.work.kind === 'model')
    report += `\n${await batchDryRun(plan.work, { store, request, samples: plan.samples.filter((sample) => !finished.has(sample.id)) })}`;
  const epochs = epochSettingsOf(plan.run);
  // Every epoch is a request: the counts and costs are of all of them.
  if (epochs)
    report += `\nEach sample ${epochs.count} times (--epochs ${epochs.count}): the counts and costs above are of every epoch.`;
  hooks.onReport?.(plan.limit ? `${report}\nThe run is ${describeSampleLimit(plan.limit)}.` : report);
  return emptySummary(plan.samples.length, plan.samples.length - done, false);
}

/** The summary of a run that answered nothing (a dry run, a stop while batches run). */
function emptySummary(total: number, pending: number, interrupted: boolean): RunSummary {
  return { ...startProgress(total, pending), interrupted, failedFast: undefined, costCapReached: false };
}

function batchRefused(plan: RunPlan): MedbenchError {
  return new MedbenchError({
    code: 'USAGE',
    message: `The run of ${plan.run.label} is not answered by a chat model (a baseline, a retriever or an embedding model computes it): --batch has nothing to submit.`,
    hint: 'Leave out --batch for this run.',
  });
}
