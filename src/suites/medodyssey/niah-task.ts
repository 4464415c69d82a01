import type { ScoredOutput } from '../../core/sample.js';
import type { ScoreInput, Task } from '../../core/task.js';
import {
  answerString,
  firstContained,
  firstMatch,
  lowerCase,
  pythonString,
  removeAsciiSpaces,
} from '../../metrics/string-match.js';
import { type NiahGold, niahGold } from './gold.js';
import { extractJsonAnswer } from './json-answer.js';
import { NIAH_ANSWER_KEYS } from './prompts.js';

export type { NiahGold } from './gold.js';

/** en compares lower-cased strings; zh compares strings without U+0020 spaces. */
export function niahNormalizer(language: unknown): (text: string) => string {
  return language === 'zh' ? removeAsciiSpaces : lowerCase;
}

export const niahTask: Task<NiahGold> = {
  suite: 'medodyssey',
  name: 'niah',
  metrics: ['esm', 'ssm'],
  primaryMetric: 'esm',
  // Right or wrong: over --epochs, the answer most epochs give.
  epochReducer: 'majority',
  gold: niahGold,
  failedScores: () => ({ esm: 0, ssm: 0 }),
  score({ sample, rawOutput, mode }: ScoreInput<NiahGold>): ScoredOutput {
    const gold = sample.gold;
    const normalize = niahNormalizer(sample.params.language);
    const extracted = extractJsonAnswer(rawOutput, NIAH_ANSWER_KEYS);
    const parsed = extracted.wellFormed ? extracted.value : '';
    const parsedText = mode === 'compat' ? pythonString(parsed) : answerString(parsed);
    const exact = extracted.wellFormed ? firstMatch(parsedText, gold.answers, normalize) : undefined;
    const contained = firstContained(rawOutput, gold.answers, normalize);
    const golds = gold.answers.map(normalize);
    return {
      status: extracted.wellFormed ? 'ok' : 'bad_format',
      parsed,
      scores: { esm: exact !== undefined ? 1 : 0, ssm: contained !== undefined ? 1 : 0 },
      explanation: {
        normalised: [
          {
            metric: 'esm',
            prediction: extracted.wellFormed ? normalize(parsedText) : '(no well-formed answer)',
            gold: golds,
          },
          { metric: 'ssm', prediction: normalize(rawOutput), gold: golds },
        ],
        matched: {
          ...(exact !== undefined ? { esm: exact } : {}),
          ...(contained !== undefined ? { ssm: contained } : {}),
        },
      },
    };
  },
};
