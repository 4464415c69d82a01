import { z } from 'zod';
import type { RunRecord } from '../../core/run-record.js';
import type { ReportTable } from '../../core/suite.js';
import type { ReportInterval } from '../../metrics/uncertainty/index.js';
import { JUDGE_METRIC, JUDGED_TASKS } from './judge-task.js';

/** What a run's report says of its judging (`medbench judge`), when it was judged. */
export const clueJudgeReportSchema = z
  .strictObject({
    jury: z.array(z.string()).meta({ description: 'The judge models (labels), in the order given.' }),
    aggregation: z
      .enum(['mean', 'majority'])
      .meta({ description: "How the jury's verdicts became a score." }),
    scored: z.record(z.string(), z.number().int().nonnegative()).meta({
      description:
        'task → answers the jury scored (items the model never answered count 0 and are not in it).',
    }),
    unscored: z.record(z.string(), z.number().int().nonnegative()).meta({
      description:
        'task → answers no judge could score (unreadable or off-schema verdicts): no score, never 0.',
    }),
  })
  .meta({
    description:
      'The LLM judge of the run (docs/judge.md): its score is the metric "judge", beside the papers\' metrics.',
  });

export type ClueJudgeReport = z.infer<typeof clueJudgeReportSchema>;

/** The stored record of a judging (`writeJuryScores`), as far as the report reads it. */
const storedJudge = z.object({
  jury: z.array(z.object({ label: z.string() })),
  aggregation: z.enum(['mean', 'majority']),
  scored: z.record(z.string(), z.number()).default({}),
  unscored: z.record(z.string(), z.number()).default({}),
});

/** `{ judge }` for a judged run's report, nothing for another. */
export function judgeOfRun(run: RunRecord): { judge?: ClueJudgeReport } {
  const parsed = storedJudge.safeParse(run.parameters.judge);
  if (!parsed.success) return {};
  const { jury, ...rest } = parsed.data;
  return { judge: { jury: jury.map((judge) => judge.label), ...rest } };
}

/** The report's runs as the judge table reads them. */
interface JudgedRun {
  label: string;
  scores: Record<string, Record<string, number>>;
  intervals?: Record<string, Record<string, ReportInterval>>;
  judge?: ClueJudgeReport;
}

const score = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(2));

/**
 * The judge's score of each judged task with its 95% interval, beside the papers' ROUGE-L and
 * BERTScore F1 of the same run, and how many answers were scored and unscored; absent when no run was judged.
 */
export function clueJudgeTable(runs: readonly JudgedRun[]): ReportTable | undefined {
  const rows = runs.flatMap((run) =>
    run.judge
      ? JUDGED_TASKS.filter((task) => run.scores[task]).map((task) => {
          const interval = run.intervals?.[task]?.[JUDGE_METRIC];
          return [
            run.label,
            task,
            score(run.scores[task]?.[JUDGE_METRIC]),
            interval ? `[${interval.lower.toFixed(2)}, ${interval.upper.toFixed(2)}]` : '—',
            score(run.scores[task]?.rougeL),
            score(run.scores[task]?.bertscore),
            String(run.judge!.scored[task] ?? 0),
            String(run.judge!.unscored[task] ?? 0),
            `${run.judge!.jury.join(', ')} (${run.judge!.aggregation})`,
          ];
        })
      : [],
  );
  if (rows.length === 0) return undefined;
  return {
    name: 'judge',
    title:
      "LLM judge beside the papers' metrics (scores ×100; the judge never enters the level scores; unscored answers have no score, never 0)",
    header: [
      'Model',
      'Task',
      'Judge',
      '95% interval',
      'ROUGE-L',
      'BERTScore F1',
      'Scored',
      'Unscored',
      'Jury',
    ],
    rows,
  };
}
