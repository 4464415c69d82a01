import { z } from 'zod';
import type { ChatMessage } from '../../core/chat-model.js';
import type { Sample, SampleParams, ScoredOutput } from '../../core/sample.js';
import type { Task } from '../../core/task.js';
import { JUDGE_ANSWER_JSON_SCHEMA, readJudgeAnswer } from '../../metrics/judge/judge-verdict.js';
import { type Rubric, rubricCriterionSchema, rubricScore } from '../../metrics/judge/rubric.js';

/** The suite name of a judge's runs: kept apart from CLUE's runs, so no report or leaderboard counts them as models. */
export const JUDGE_SUITE = 'clue-judge';

/** The score a jury writes beside the papers' metrics; never part of a level score. */
export const JUDGE_METRIC = 'judge';

/** The CLUE tasks a judge grades: the free-text ones. */
export const JUDGED_TASKS = ['meqsum', 'problem-summary', 'medisumqa'] as const;
export type JudgedTask = (typeof JUDGED_TASKS)[number];

/** A judge's answer limit unless --max-output-tokens says otherwise: a verdict and a reason per criterion. */
export const JUDGE_MAX_OUTPUT_TOKENS = 2000;

/** What a judge sample carries to score the judge's answer: the rubric's criteria. */
const judgeGold = z.object({ criteria: z.array(rubricCriterionSchema).min(1) });
type JudgeGold = z.infer<typeof judgeGold>;

/** The judge's instructions: its role, the task's definition, the rubric, and the answer's schema. */
export function judgeSystemPrompt(rubric: Rubric): string {
  const criteria = rubric.criteria
    .map(
      (criterion) =>
        `- ${criterion.id} (${criterion.points > 0 ? '+' : ''}${criterion.points}): ${criterion.text}`,
    )
    .join('\n');
  return [
    'You grade one answer of a language model to a clinical task against a rubric, criterion by criterion.',
    `The task: ${rubric.definition}`,
    'For every criterion decide whether the answer meets it ("met": true) or not ("met": false), with a one-sentence reason. A criterion with negative points describes something the answer must not do: it is met when the answer does it.',
    'Judge the answer only; the reference answer shows what a good answer contains, the answer need not repeat its words.',
    `The rubric:\n${criteria}`,
    `Answer with one JSON object and nothing else, matching this JSON Schema, with one entry for each criterion id above:\n${JSON.stringify(JUDGE_ANSWER_JSON_SCHEMA)}`,
  ].join('\n\n');
}

/**
 * What the judge reads of one sample: the task as the model got it, the reference, the answer
 * (`answerFirst`: the answer's block before the reference's, the swap probe of docs/judge-probes.md).
 */
export function judgeUserPrompt(
  item: { input: string; reference: string; answer: string },
  options: { answerFirst?: boolean } = {},
): string {
  const reference = `<reference_answer>\n${item.reference}\n</reference_answer>`;
  const answer = `<answer_to_grade>\n${item.answer}\n</answer_to_grade>`;
  return [
    `<task_input>\n${item.input}\n</task_input>`,
    ...(options.answerFirst ? [answer, reference] : [reference, answer]),
  ].join('\n\n');
}

/** One judged sample as a request to the judge: same id and params as the model's result. */
export function judgeSample(options: {
  sampleId: string;
  task: JudgedTask;
  params: SampleParams;
  rubric: Rubric;
  input: string;
  reference: string;
  answer: string;
  /** The swap probe: the answer's block before the reference's. */
  answerFirst?: boolean;
}): Sample {
  const prompt = judgeUserPrompt(options, options);
  const messages: ChatMessage[] = [
    { role: 'system', content: judgeSystemPrompt(options.rubric) },
    { role: 'user', content: prompt },
  ];
  return {
    id: options.sampleId,
    suite: JUDGE_SUITE,
    task: options.task,
    params: options.params,
    prompt,
    messages,
    promptChars: messages.reduce((sum, message) => sum + message.content.length, 0),
    promptTokens: {},
    gold: { criteria: options.rubric.criteria },
  };
}

/** What a judge's result keeps as its parsed answer: the verdicts and the score, or why it is unscored. */
export type JudgeParsed =
  | { verdicts: Array<{ id: string; met: boolean; reason: string }>; raw: number }
  | { unscored: string };

/**
 * The task a judge's answers are scored by: its answer read against the rubric (`readJudgeAnswer`);
 * an answer that cannot be read is `bad_format` with its reason, and no score (never 0).
 */
export function judgeTask(task: JudgedTask): Task<JudgeGold> {
  return {
    suite: JUDGE_SUITE,
    name: task,
    metrics: [JUDGE_METRIC],
    primaryMetric: JUDGE_METRIC,
    gold: judgeGold,
    failedScores: () => ({}),
    score: ({ sample, rawOutput }): ScoredOutput => {
      const reading = readJudgeAnswer(rawOutput, sample.gold);
      if ('unscored' in reading)
        return {
          status: 'bad_format',
          parsed: { unscored: reading.unscored } satisfies JudgeParsed,
          scores: {},
        };
      const met = new Set(reading.verdicts.filter((verdict) => verdict.met).map((verdict) => verdict.id));
      const { score, raw } = rubricScore(sample.gold, met);
      return {
        status: 'ok',
        parsed: { verdicts: reading.verdicts, raw } satisfies JudgeParsed,
        scores: { [JUDGE_METRIC]: score },
      };
    },
  };
}
