import type { ScoredOutput } from '../../core/sample.js';
import type { ScoreInput, Task } from '../../core/task.js';
import { listsEqual } from '../../metrics/list-match.js';
import { type CountingGold, countingGold } from './gold.js';
import { extractJsonAnswer } from './json-answer.js';
import { COUNTING_ANSWER_KEYS } from './prompts.js';

export type { CountingGold } from './gold.js';

export const countingTask: Task<CountingGold> = {
  suite: 'medodyssey',
  name: 'counting',
  metrics: ['esm', 'ssm'],
  primaryMetric: 'esm',
  // Right or wrong: over --epochs, the answer most epochs give.
  epochReducer: 'majority',
  gold: countingGold,
  failedScores: () => ({ esm: 0, ssm: 0 }),
  score({ sample, rawOutput }: ScoreInput<CountingGold>): ScoredOutput {
    const gold = sample.gold;
    const extracted = extractJsonAnswer(rawOutput, COUNTING_ANSWER_KEYS);
    const parsed = extracted.wellFormed ? extracted.value : [];
    const esm = extracted.wellFormed && listsEqual(parsed, gold.counts);
    // SSM: the gold list written as JSON without spaces, inside the raw output without
    // U+0020 spaces and newlines.
    const ssm = esm || rawOutput.replace(/[ \n]/g, '').includes(JSON.stringify(gold.counts));
    return {
      status: extracted.wellFormed ? 'ok' : 'bad_format',
      parsed,
      scores: { esm: esm ? 1 : 0, ssm: ssm ? 1 : 0 },
    };
  },
};
