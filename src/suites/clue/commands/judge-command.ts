import type { RunHooks } from '../../../compose/run-model.js';
import type { CommandOption, SuiteCommand, SuiteCommandContext } from '../../../compose/suite-plugin.js';
import { MedbenchError } from '../../../core/errors.js';
import { JURY_AGGREGATIONS, type JuryAggregation } from '../../../metrics/judge/jury.js';
import { formatInterval } from '../../../metrics/uncertainty/index.js';
import { JUDGE_MAX_OUTPUT_TOKENS } from '../judge-task.js';
import { type JudgeClueRequest, judgeClue } from './judge-clue.js';
import type { JudgeSummary } from './judge-jury.js';

const NAMES: Readonly<Record<string, string>> = { rougeL: 'ROUGE-L', bertscore: 'BERTScore F1' };

/** What a judging did, as lines: per task the jury's score with its interval, beside ROUGE-L and BERTScore, and the unscored. */
export function renderJudgeSummary(summary: JudgeSummary): string {
  if (!summary.written)
    return 'The judges were stopped before every answer was graded (Ctrl-C or --max-cost): nothing was written to the run. Every verdict so far is stored; re-run the same command to go on.\n';
  const lines = Object.entries(summary.tasks).map(([task, entry]) => {
    const score = entry.interval ? formatInterval(entry.interval, { factor: 100 }) : 'none scored';
    const beside = Object.entries(entry.beside)
      .map(([metric, value]) => `${NAMES[metric] ?? metric} ${(100 * value).toFixed(1)}`)
      .join(', ');
    const failed = entry.failed > 0 ? `, ${entry.failed} not answered by the model (0)` : '';
    const unscored =
      entry.unscored > 0 ? `; ${entry.unscored} unscored (${entry.reasons.join('; ')})` : '; 0 unscored';
    return `${task}: judge ${score} over ${entry.scored} graded ${entry.scored === 1 ? 'answer' : 'answers'}${failed}${beside ? ` — ${beside}` : ''}${unscored}`;
  });
  const cost = summary.cost === null ? 'unknown (no prices)' : summary.cost.toFixed(4);
  return `${[
    ...lines,
    `Jury of ${summary.judgeRuns.length} (${summary.aggregation}); the judges' answers cost ${cost}. Scores ×100 with 95% intervals; the judge score is the metric "judge" of the run (medbench report --suite clue).`,
  ].join('\n')}\n`;
}

function parseAggregation(value: string): JuryAggregation {
  if ((JURY_AGGREGATIONS as readonly string[]).includes(value)) return value as JuryAggregation;
  throw new MedbenchError({
    code: 'USAGE',
    message: `--aggregation ${value}: not an aggregation; the rules are ${JURY_AGGREGATIONS.join(' and ')}.`,
    hint: `Give ${JURY_AGGREGATIONS.join(' or ')} (docs/judge.md).`,
  });
}

/** Runs a judging command on the terminal session (progress, Ctrl-C) and prints what it did. */
export async function runJudging<Outcome>(
  context: SuiteCommandContext,
  work: (hooks: RunHooks) => Promise<Outcome>,
  render: (outcome: Outcome) => string,
): Promise<Outcome> {
  const session = context.session();
  try {
    const outcome = await work(session.hooks);
    context.output.stdout(render(outcome));
    return outcome;
  } finally {
    session.dispose();
  }
}

/** The options every judging command takes (`judge`, `judge-probe`): the judges and the rubrics. */
export const JUDGE_OPTIONS: readonly CommandOption[] = [
  {
    flags: '--model <specs>',
    description: 'the judge model, or a jury: a comma list of specs (config names, provider:model …)',
    required: true,
  },
  {
    flags: '--rubric <file>',
    description:
      'a rubric file replacing the shipped one of its task (its "task" field); repeat for several tasks',
    parse: (value, previous) => [...((previous as string[] | undefined) ?? []), value],
  },
];

/** `run`'s model and retry options, as every judging command shares them. */
export const JUDGE_MODEL_OPTIONS: SuiteCommand['modelOptions'] = {
  outputLimit: `${JUDGE_MAX_OUTPUT_TOKENS} (a verdict and a reason per criterion)`,
};

/** `medbench judge <run>`: a jury of judge models grades a stored CLUE run against rubrics. */
export const judgeCommand: SuiteCommand = {
  name: 'judge',
  arguments: ['<run>'],
  description:
    'grade a stored CLUE run\'s free-text answers (MeQSum, Problem Summary, MeDiSumQA) against per-criterion rubrics with a jury of judge models; the score goes beside ROUGE and BERTScore as the metric "judge", never replacing them (docs/judge.md)',
  options: [
    ...JUDGE_OPTIONS,
    {
      flags: '--aggregation <rule>',
      description:
        "how a jury's verdicts become a score: mean (of the judges' scores, default) or majority (per criterion)",
      parse: parseAggregation,
    },
  ],
  modelOptions: JUDGE_MODEL_OPTIONS,
  run: ({ arguments: [runId], options }, context) =>
    runJudging(
      context,
      (hooks) => judgeClue({ ...(options as unknown as JudgeClueRequest), run: runId! }, hooks),
      renderJudgeSummary,
    ),
};
