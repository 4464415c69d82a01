import { parseChoiceList, parseNumber } from '../../../compose/parse-options.js';
import type { SuiteCommand } from '../../../compose/suite-plugin.js';
import { renderReportTable } from '../../../report/text-table.js';
import { clueJudgeSensitivityTable } from '../clue-judge-sensitivity.js';
import { DEFAULT_PAD_FACTOR, JUDGE_PROBES } from '../judge-probes.js';
import { JUDGE_MODEL_OPTIONS, JUDGE_OPTIONS, runJudging } from './judge-command.js';
import { type JudgeProbeOutcome, type JudgeProbeRequest, judgeProbe } from './judge-probe.js';

/** What a probing did: each judge's sensitivity as the report's table, or why nothing was written. */
export function renderJudgeProbes(outcome: JudgeProbeOutcome): string {
  if (!outcome.written)
    return 'The judges were stopped before every answer was graded (Ctrl-C or --max-cost): no sensitivity was written to the run. Every verdict so far is stored; re-run the same command to go on.\n';
  const table = clueJudgeSensitivityTable([{ label: outcome.label, judgeProbes: outcome.records }]);
  return `${table ? renderReportTable(table) : 'No judged task to probe.'}\n`;
}

/** `medbench judge-probe <run>`: each judge's sensitivity to the answer's position and length. */
export const judgeProbeCommand: SuiteCommand = {
  name: 'judge-probe',
  arguments: ['<run>'],
  description:
    "probe each judge of a stored CLUE run's answers: the answer before the reference (swap) and the answer padded with content-free sentences (padding); prints and stores how much each judge's score moves, never changing the judge score (docs/judge-probes.md)",
  options: [
    ...JUDGE_OPTIONS,
    {
      flags: '--probes <names>',
      description: `the probes, a comma list of ${JUDGE_PROBES.join(', ')} (default: all)`,
      parse: (value) => parseChoiceList('--probes', value, JUDGE_PROBES),
    },
    {
      flags: '--pad-factor <factor>',
      description: `padding: the answer lengthened to about this many times its characters (default ${DEFAULT_PAD_FACTOR})`,
      parse: (value) => parseNumber('--pad-factor', value, { min: 1.1, max: 10, integer: false }),
    },
  ],
  modelOptions: JUDGE_MODEL_OPTIONS,
  run: ({ arguments: [runId], options }, context) =>
    runJudging(
      context,
      (hooks) => judgeProbe({ ...(options as unknown as JudgeProbeRequest), run: runId! }, hooks),
      renderJudgeProbes,
    ),
};
