import { MedbenchError } from '../../../core/errors.js';
import type { RunRecord } from '../../../core/run-record.js';
import type { Sample, SampleParams } from '../../../core/sample.js';
import type { ReviewItem } from '../../../core/suite.js';
import type { Store } from '../../../store/store.js';
import type { rubricsFor } from '../judge-rubrics.js';
import { JUDGED_TASKS, type JudgedTask, judgeSample } from '../judge-task.js';
import { clueReview } from '../review.js';

/** One answered item of a judged task: what the model read, the reference and its answer. */
export interface JudgeItem extends ReviewItem {
  sampleId: string;
  task: JudgedTask;
  params: SampleParams;
}

/** The answered items of a run's judged tasks; none is an error (there is nothing to judge). */
export function judgeItemsOf(store: Store, run: RunRecord): JudgeItem[] {
  let withoutPrompt = 0;
  const items = JUDGED_TASKS.flatMap((task) =>
    store.results(run.id, { task }).flatMap((result) => {
      const prompt = (result.promptHash && store.getPrompt(result.promptHash)) || null;
      if (result.status === 'ok' && !prompt) withoutPrompt++;
      const item = clueReview.itemOf(result, prompt);
      return item ? [{ sampleId: result.sampleId, task, params: result.params, ...item }] : [];
    }),
  );
  // A judge grades an answer against what the model read: without it, refused before anything is sent.
  if (withoutPrompt > 0)
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `Run ${run.id} stores no prompt for ${withoutPrompt} of its answered ${JUDGED_TASKS.join(', ')} items: a judge would grade them without the question or letter the model read.`,
      hint: 'A CLUE baseline run of an earlier medbench stored no prompts: make the run again in a new home (--home), where each item keeps its prompt, and judge that run.',
    });
  if (items.length === 0)
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `Run ${run.id} has no answered ${JUDGED_TASKS.join(', ')} item to judge.`,
      hint: 'Judge a CLUE run of the free-text tasks (run clue --tasks meqsum,problem-summary,medisumqa).',
    });
  return items;
}

/** The judge samples of the items, each with its task's rubric (`answerFirst`: the swap probe's order). */
export function judgeSamplesOf(
  items: readonly JudgeItem[],
  rubrics: ReturnType<typeof rubricsFor>,
  options: { answerFirst?: boolean } = {},
): Sample[] {
  return items.map((item) => judgeSample({ ...item, rubric: rubrics[item.task].rubric, ...options }));
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
export function checkJudgeable(run: RunRecord, request: { temperature?: number }): void {
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
