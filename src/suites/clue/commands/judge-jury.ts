import type { RunRecord, StoredResult } from '../../../core/run-record.js';
import { type JudgeGrade, type JuryAggregation, juryScore } from '../../../metrics/judge/jury.js';
import { type Interval, meanInterval } from '../../../metrics/uncertainty/index.js';
import type { Store } from '../../../store/store.js';
import type { rubricsFor } from '../judge-rubrics.js';
import { JUDGE_METRIC, JUDGED_TASKS, type JudgedTask, type JudgeParsed } from '../judge-task.js';
import { type Averaging, averaged, averagingOf } from '../protocols.js';

/** What a judging did, per task: the jury's score with its interval, and the samples it could not score. */
export interface JudgeSummary {
  /** False when a judge was stopped (Ctrl-C, --max-cost): nothing is written, a re-run goes on. */
  written: boolean;
  judgeRuns: string[];
  aggregation: JuryAggregation;
  /** What the judges' answers cost (null: a judge has no prices). */
  cost: number | null;
  tasks: Partial<
    Record<
      JudgedTask,
      {
        /** Answers the jury scored, and items the model never answered (scored 0, as every metric). */
        scored: number;
        failed: number;
        /** Answers no judge could score, with the first reasons. */
        unscored: number;
        reasons: string[];
        interval: Interval | undefined;
        /** The papers' metrics of the same items (mean, 0–1), to read beside the judge's. */
        beside: Record<string, number>;
      }
    >
  >;
}

/** One judge's grade of one sample, read from its stored result. */
function gradeOf(result: StoredResult | undefined, label: string): JudgeGrade {
  if (!result) return { unscored: `${label}: not judged` };
  const parsed = result.parsed as JudgeParsed | null;
  if (result.status === 'ok' && parsed && 'verdicts' in parsed)
    return { met: new Set(parsed.verdicts.filter((verdict) => verdict.met).map((verdict) => verdict.id)) };
  if (parsed && 'unscored' in parsed) return { unscored: `${label}: ${parsed.unscored}` };
  return { unscored: `${label}: no answer (${result.status}${result.error ? `: ${result.error}` : ''})` };
}

/** Every judge result's cost, null when one has none. */
function judgeCost(store: Store, judgeRuns: readonly RunRecord[]): number | null {
  let total = 0;
  for (const judgeRun of judgeRuns)
    for (const result of store.results(judgeRun.id)) {
      if (result.cost === null && !result.cacheHit) return null;
      total += result.cost ?? 0;
    }
  return total;
}

/**
 * ROUGE-L and BERTScore F1 of a task's items (those the run has), averaged as the report averages
 * them: by the run's protocol (the published code counts its first item twice), so the figures
 * printed beside the judge's are the report's.
 */
function papersMetrics(results: readonly StoredResult[], rule: Averaging): Record<string, number> {
  const means: Record<string, number> = {};
  const ordered = [...results].sort((a, b) => Number(a.params.order ?? 0) - Number(b.params.order ?? 0));
  for (const metric of ['rougeL', 'bertscore']) {
    const values = ordered.flatMap((result) => (metric in result.scores ? [result.scores[metric]!] : []));
    if (values.length > 0) means[metric] = averaged(values, rule);
  }
  return means;
}

interface JuryOptions {
  judgeRuns: readonly RunRecord[];
  rubrics: ReturnType<typeof rubricsFor>;
  aggregation: JuryAggregation;
  complete: boolean;
}

type ScoreUpdate = { sampleId: string; scores: Record<string, number> };

/** One task's items graded by the jury: the scores to write, and the task's summary. */
function gradeTask(
  store: Store,
  run: RunRecord,
  results: readonly StoredResult[],
  task: JudgedTask,
  options: JuryOptions,
): { updates: ScoreUpdate[]; entry: NonNullable<JudgeSummary['tasks'][JudgedTask]> } {
  const entry = { scored: 0, failed: 0, unscored: 0, reasons: [] as string[] };
  const values: number[] = [];
  const updates = results.map((result): ScoreUpdate => {
    const { [JUDGE_METRIC]: _previous, ...scores } = result.scores;
    let judged: number | undefined;
    if (result.status !== 'ok') {
      // Never answered: wrong and counted, as every other metric.
      entry.failed++;
      judged = 0;
    } else {
      const grades = options.judgeRuns.map((judgeRun) =>
        gradeOf(store.result(judgeRun.id, result.sampleId), judgeRun.label),
      );
      const jury = juryScore(options.rubrics[task].rubric, grades, options.aggregation);
      if ('unscored' in jury) {
        entry.unscored++;
        if (entry.reasons.length < 3) entry.reasons.push(`${result.sampleId}: ${jury.unscored}`);
      } else {
        entry.scored++;
        judged = jury.score;
      }
    }
    if (judged === undefined) return { sampleId: result.sampleId, scores };
    values.push(judged);
    return { sampleId: result.sampleId, scores: { ...scores, [JUDGE_METRIC]: judged } };
  });
  return {
    updates,
    entry: {
      ...entry,
      interval: values.length > 0 ? meanInterval(values) : undefined,
      beside: papersMetrics(results, averagingOf(run.parameters, task)),
    },
  };
}

/** What a run keeps of its judging (`parameters.judge`): the jury, the rule, the rubrics and the counts. */
function judgeRecord(summary: JudgeSummary, options: JuryOptions): Record<string, unknown> {
  const perTask = <T>(
    value: (task: JudgedTask, entry: NonNullable<JudgeSummary['tasks'][JudgedTask]>) => T,
  ) =>
    Object.fromEntries(
      Object.entries(summary.tasks).map(([task, entry]) => [task, value(task as JudgedTask, entry)]),
    );
  return {
    jury: options.judgeRuns.map((judgeRun) => ({ label: judgeRun.label, run: judgeRun.id })),
    aggregation: options.aggregation,
    rubrics: perTask((task) => ({
      file: options.rubrics[task].file,
      version: options.rubrics[task].rubric.version,
    })),
    scored: perTask((_, entry) => entry.scored),
    unscored: perTask((_, entry) => entry.unscored),
  };
}

/**
 * The jury's score of every judged item of `run`, written as its `judge` metric (an unscored item
 * has none: never 0), and what was judged recorded in the run's parameters (`judge`). Nothing is
 * written unless every judge finished.
 */
export function writeJuryScores(store: Store, run: RunRecord, options: JuryOptions): JudgeSummary {
  const summary: JudgeSummary = {
    written: options.complete,
    judgeRuns: options.judgeRuns.map((judgeRun) => judgeRun.id),
    aggregation: options.aggregation,
    cost: judgeCost(store, options.judgeRuns),
    tasks: {},
  };
  if (!options.complete) return summary;
  const updates: ScoreUpdate[] = [];
  for (const task of JUDGED_TASKS) {
    const results = store.results(run.id, { task });
    if (results.length === 0) continue;
    const graded = gradeTask(store, run, results, task, options);
    updates.push(...graded.updates);
    summary.tasks[task] = graded.entry;
  }
  store.transaction(() => {
    for (const update of updates) store.updateScores(run.id, update.sampleId, update.scores);
    store.updateRunParameters(run.id, { ...run.parameters, judge: judgeRecord(summary, options) });
  });
  return summary;
}
