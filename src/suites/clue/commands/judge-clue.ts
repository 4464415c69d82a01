import type { RunHooks } from '../../../compose/run-model.js';
import type { JuryAggregation } from '../../../metrics/judge/jury.js';
import { suiteLeaderboard } from '../../../store/suite-leaderboard.js';
import { clueSuite } from '../suite.js';
import { judgeSamplesOf } from './judge-items.js';
import { type JudgeSummary, writeJuryScores } from './judge-jury.js';
import { type JudgeModelRequest, openJudging, runJudges } from './judging.js';

export interface JudgeClueRequest extends JudgeModelRequest {
  aggregation?: JuryAggregation;
}

/**
 * `medbench judge <run> --model <judge>[,<judge>…]`: grades a stored CLUE run's free-text answers
 * (MeQSum, Problem Summary, MeDiSumQA) against each task's rubric with a jury of judge models,
 * each a run of its own through the runner (cache, resume, --max-cost, restricted-data rules), and
 * writes the jury's score as the `judge` metric beside the papers' metrics (docs/judge.md).
 */
export async function judgeClue(request: JudgeClueRequest, hooks: RunHooks = {}): Promise<JudgeSummary> {
  const judging = await openJudging(request);
  const { store, run, rubrics } = judging;
  try {
    const samples = judgeSamplesOf(judging.items, rubrics);
    const plans = judging.judges.map((judge) => ({ judge, samples }));
    const { judgeRuns, complete } = await runJudges(judging, plans, request, hooks);
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
