import { z } from 'zod';
import { resolveHome, storePathIn } from '../../../compose/home.js';
import { runName } from '../../../compose/named-run.js';
import type { SuiteCommand } from '../../../compose/suite-plugin.js';
import { MedbenchError } from '../../../core/errors.js';
import type { RunRecord } from '../../../core/run-record.js';
import { Store } from '../../../store/store.js';
import { JUDGE_METRIC, JUDGED_TASKS, type JudgeParsed } from '../judge-task.js';
import { type ValidationItem, validateTask } from '../judge-validation.js';
import { judgeValidationJson } from '../judge-validation-schema.js';
import { renderJudgeValidation } from '../judge-validation-text.js';
import { clueRun } from './clue-umls-entities.js';

/** What `judge-validate` reads of a judged run's `parameters.judge`: its jurors and their runs. */
const judgedSchema = z.object({ jury: z.array(z.object({ label: z.string(), run: z.string() })).min(1) });

/** The jury of a judged run; a clear error for a run never judged. */
function juryOf(run: RecordLike): Array<{ label: string; run: string }> {
  const parsed = judgedSchema.safeParse(run.parameters.judge);
  if (!parsed.success)
    throw new MedbenchError({
      code: 'USAGE',
      message: `Run ${runName(run as RunRecord)} (${run.id}) has not been judged: it has no judge score to validate.`,
      hint: `Judge it first: medbench judge ${run.id.slice(0, 8)} --model <judge> (docs/judge.md).`,
    });
  return parsed.data.jury;
}

type RecordLike = Pick<RunRecord, 'id' | 'label' | 'parameters'>;

/** A juror's verdicts on one item, by criterion; undefined when it could not score the item. */
function verdictsOf(store: Store, judgeRun: string, sampleId: string): Record<string, boolean> | undefined {
  const result = store.result(judgeRun, sampleId);
  const parsed = result?.parsed as JudgeParsed | null | undefined;
  if (result?.status !== 'ok' || !parsed || !('verdicts' in parsed)) return undefined;
  return Object.fromEntries(parsed.verdicts.map((verdict) => [verdict.id, verdict.met]));
}

/** The SHA-256 of the rubric the jury graded a task by (the judge run records it). */
function rubricDigest(store: Store, judgeRun: string, task: string): string | undefined {
  const rubrics = store.getRun(judgeRun)?.parameters.rubrics as
    | Record<string, { sha256?: string }>
    | undefined;
  return rubrics?.[task]?.sha256;
}

/** Every judged item of a run, with its jurors' verdicts and people's current grades by the jury's rubric. */
function itemsOf(store: Store, run: RunRecord, otherRubric: Record<string, number>): ValidationItem[] {
  const jury = juryOf(run);
  return JUDGED_TASKS.flatMap((task) => {
    const digest = rubricDigest(store, jury[0]!.run, task);
    const grades = store.humanGrades.current({ runId: run.id, task });
    const usable = grades.filter((grade) => grade.rubricSha256 === digest);
    if (grades.length > usable.length)
      otherRubric[task] = (otherRubric[task] ?? 0) + grades.length - usable.length;
    return store.results(run.id, { task }).map((result) => ({
      runId: run.id,
      sampleId: result.sampleId,
      task,
      answered: result.status === 'ok',
      judgeScore: result.scores[JUDGE_METRIC],
      judges: Object.fromEntries(
        jury.flatMap(({ label, run: judgeRun }) => {
          const verdicts = verdictsOf(store, judgeRun, result.sampleId);
          return verdicts ? [[label, verdicts]] : [];
        }),
      ),
      grades: usable
        .filter((grade) => grade.sampleId === result.sampleId)
        .map(({ reviewer, verdicts, score }) => ({ reviewer, verdicts, score })),
    }));
  });
}

/**
 * `medbench judge-validate <run…>`: how far the judge of the given judged runs agrees with people's
 * grades, task by task, and each run's judge score corrected by them (docs/judge-validate.md).
 */
export function judgeValidate(request: { runs: readonly string[]; home?: string }) {
  const store = new Store(storePathIn(resolveHome(request.home)), { readonly: true });
  try {
    const runs = request.runs.map((name) => clueRun(store, name));
    const otherRubric: Record<string, number> = {};
    const items = runs.flatMap((run) => itemsOf(store, run, otherRubric));
    const tasks = JUDGED_TASKS.filter((task) => items.some((item) => item.task === task)).map((task) =>
      validateTask(
        task,
        items.filter((item) => item.task === task),
      ),
    );
    const labels = Object.fromEntries(runs.map((run) => [run.id, runName(run)]));
    return { tasks, labels, otherRubric };
  } finally {
    store.close();
  }
}

/** `medbench judge-validate <run…> [--json]`. */
export const judgeValidateCommand: SuiteCommand = {
  name: 'judge-validate',
  arguments: ['<runs...>'],
  description:
    "how far the LLM judge of judged CLUE runs agrees with people's grades (export/import grades, the viewer's review): Cohen's kappa per criterion (the jury and each juror), ICC of the scores, people against people on double-rated items, and each run's judge score corrected by the graded items (PPI++) with its 95% interval (docs/judge-validate.md)",
  options: [{ flags: '--json', description: 'one JSON document (schemas/judge-validate.schema.json)' }],
  run: async ({ arguments: names, options }, context) => {
    const runs = (names as unknown[]).flat() as string[];
    const validation = judgeValidate({ runs, ...(options.home ? { home: options.home } : {}) });
    if (options.json) {
      const document = judgeValidationJson({
        tasks: validation.tasks.map((task) => ({
          ...task,
          otherRubric: validation.otherRubric[task.task] ?? 0,
          runs: task.runs.map((run) => ({ ...run, label: validation.labels[run.runId] })),
        })),
      });
      context.output.stdout(`${JSON.stringify(document, null, 2)}\n`);
      return document;
    }
    context.output.stdout(renderJudgeValidation(validation.tasks, validation));
    return validation;
  },
};
