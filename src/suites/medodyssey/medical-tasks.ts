import type { z } from 'zod';
import type { ScoredOutput } from '../../core/sample.js';
import type { ScoreInput, ScoringMode, Task } from '../../core/task.js';
import { answerString, lowerCase, pythonString, removeAsciiSpaces } from '../../metrics/string-match.js';
import { caseGold, kgGold, tableGold, termGold } from './gold.js';
import { extractJsonAnswer } from './json-answer.js';

const RESULT_KEYS = ['result'] as const;
/** Separators for joining list answers, in the order the published scorer tried them. */
export const JOIN_SEPARATORS = [',', '，', ';', '；', '、', '+', ' '] as const;

export function firstSeparator(text: string): string | undefined {
  return JOIN_SEPARATORS.find((separator) => text.includes(separator));
}

/**
 * The predicted items of a list answer. A string is one item in standard mode; in compat
 * mode it is iterated as the published scorer did, every distinct character an item.
 */
export function predictedItems(value: unknown, mode: ScoringMode): string[] {
  if (Array.isArray(value))
    return value.map((item) => (mode === 'compat' ? pythonString(item) : answerString(item)));
  if (typeof value === 'string') return mode === 'compat' ? [...new Set(value)] : value === '' ? [] : [value];
  if (value === undefined || value === null) return [];
  return [mode === 'compat' ? pythonString(value) : answerString(value)];
}

/** True positives, false positives and false negatives of two sets. */
function counts(predicted: ReadonlySet<string>, gold: ReadonlySet<string>) {
  let tp = 0;
  for (const item of gold) if (predicted.has(item)) tp++;
  return { tp, fp: predicted.size - tp, fn: gold.size - tp };
}

/** KG gold as compared: lower-cased, de-duplicated triplets. */
function kgGoldSet(sample: { gold: z.infer<typeof kgGold> }): Set<string> {
  return new Set(sample.gold.triplets.map(lowerCase));
}

/**
 * Table gold and predictions as compared. Predictions are de-duplicated first (the published
 * scorer took `set()` of them), then, when exactly one distinct item answers a gold list of
 * several, the gold items are joined with the first separator found in the first gold item;
 * both sides then lose their U+0020 spaces.
 */
function tableSets(answers: readonly string[], predicted: readonly string[]) {
  const distinct = [...new Set(predicted)];
  let goldItems: readonly string[] = answers;
  const separator = answers.length > 1 ? firstSeparator(answers[0]!) : undefined;
  if (distinct.length === 1 && separator !== undefined) goldItems = [answers.join(separator)];
  return {
    predicted: new Set(distinct.map(removeAsciiSpaces)),
    gold: new Set(goldItems.map(removeAsciiSpaces)),
  };
}

/** Term: the standard term, compared case-insensitively; SSM looks inside the parsed answer. */
export const termTask: Task<z.infer<typeof termGold>> = {
  suite: 'medodyssey',
  name: 'term',
  metrics: ['esm', 'ssm'],
  primaryMetric: 'esm',
  // Exact match, right or wrong: over --epochs, the answer most epochs give.
  epochReducer: 'majority',
  gold: termGold,
  failedScores: () => ({ esm: 0, ssm: 0 }),
  score({ sample, rawOutput, mode }: ScoreInput<z.infer<typeof termGold>>): ScoredOutput {
    const { answer } = sample.gold;
    const extracted = extractJsonAnswer(rawOutput, RESULT_KEYS);
    const parsed = extracted.wellFormed ? extracted.value : '';
    const text = lowerCase(mode === 'compat' ? pythonString(parsed) : answerString(parsed));
    const esm = extracted.wellFormed && text === lowerCase(answer);
    const ssm = extracted.wellFormed && text.includes(lowerCase(answer));
    return {
      status: extracted.wellFormed ? 'ok' : 'bad_format',
      parsed,
      scores: { esm: esm ? 1 : 0, ssm: ssm ? 1 : 0 },
      explanation: {
        normalised: ['esm', 'ssm'].map((metric) => ({ metric, prediction: text, gold: [lowerCase(answer)] })),
        matched: { ...(esm ? { esm: answer } : {}), ...(ssm ? { ssm: answer } : {}) },
      },
    };
  },
};

/** KG: triplets, lower-cased sets; tp/fp/fn per sample for micro P/R/F1. SSM: every gold triplet in the raw output. */
export const kgTask: Task<z.infer<typeof kgGold>> = {
  suite: 'medodyssey',
  name: 'kg',
  metrics: ['tp', 'fp', 'fn', 'ssm'],
  primaryMetric: 'ssm',
  gold: kgGold,
  // Not answered: predicts nothing, so every gold triplet is a false negative (spec: too_long).
  failedScores: (sample) => ({ tp: 0, fp: 0, fn: kgGoldSet(sample).size, ssm: 0 }),
  score({ sample, rawOutput, mode }: ScoreInput<z.infer<typeof kgGold>>): ScoredOutput {
    const extracted = extractJsonAnswer(rawOutput, RESULT_KEYS);
    const parsed = extracted.wellFormed ? extracted.value : [];
    const gold = kgGoldSet(sample);
    const predicted = new Set(predictedItems(parsed, mode).map(lowerCase));
    const raw = lowerCase(rawOutput);
    return {
      status: extracted.wellFormed ? 'ok' : 'bad_format',
      parsed,
      scores: {
        ...counts(predicted, gold),
        ssm: [...gold].every((triplet) => raw.includes(triplet)) ? 1 : 0,
      },
    };
  },
};

/**
 * Table: like KG with U+0020 spaces removed instead of lower-casing, and the repair rule of
 * `tableSets`. SSM: every gold string in the raw output.
 */
export const tableTask: Task<z.infer<typeof tableGold>> = {
  suite: 'medodyssey',
  name: 'table',
  metrics: ['tp', 'fp', 'fn', 'ssm'],
  primaryMetric: 'ssm',
  gold: tableGold,
  failedScores: (sample) => ({
    tp: 0,
    fp: 0,
    fn: tableSets(sample.gold.answers, []).gold.size,
    ssm: 0,
  }),
  score({ sample, rawOutput, mode }: ScoreInput<z.infer<typeof tableGold>>): ScoredOutput {
    const { answers } = sample.gold;
    const extracted = extractJsonAnswer(rawOutput, RESULT_KEYS);
    const parsed = extracted.wellFormed ? extracted.value : [];
    const sets = tableSets(answers, predictedItems(parsed, mode));
    return {
      status: extracted.wellFormed ? 'ok' : 'bad_format',
      parsed,
      scores: {
        ...counts(sets.predicted, sets.gold),
        ssm: answers.every((answer) => rawOutput.includes(answer)) ? 1 : 0,
      },
    };
  },
};

/** The predicted string compared with one Case alternative (its first string is the answer). */
export function caseAnswerFor(parsed: unknown, alternative: string, mode: ScoringMode): string {
  const separator = firstSeparator(alternative);
  if (mode === 'compat' && typeof parsed === 'string') {
    return parsed.length > 1 && separator !== undefined ? [...parsed].join(separator) : parsed;
  }
  const items = predictedItems(parsed, mode);
  if (items.length === 0) return '';
  if (items.length === 1) return items[0]!;
  return separator !== undefined ? items.join(separator) : items[0]!;
}

/** Case: accuracy over accepted alternatives, compared without U+0020 spaces. SSM: an alternative's answer in the raw output. */
export const caseTask: Task<z.infer<typeof caseGold>> = {
  suite: 'medodyssey',
  name: 'case',
  metrics: ['esm', 'ssm'],
  primaryMetric: 'esm',
  // Exact match, right or wrong: over --epochs, the answer most epochs give.
  epochReducer: 'majority',
  gold: caseGold,
  failedScores: () => ({ esm: 0, ssm: 0 }),
  score({ sample, rawOutput, mode }: ScoreInput<z.infer<typeof caseGold>>): ScoredOutput {
    const { alternatives } = sample.gold;
    const extracted = extractJsonAnswer(rawOutput, RESULT_KEYS);
    const parsed = extracted.wellFormed ? extracted.value : [];
    const answers = alternatives.map((alternative) => alternative[0] ?? '');
    // The alternative each metric accepted (undefined: none), as the sample page shows it.
    const esm = extracted.wellFormed
      ? answers.find(
          (answer) => removeAsciiSpaces(caseAnswerFor(parsed, answer, mode)) === removeAsciiSpaces(answer),
        )
      : undefined;
    const ssm = answers.find((answer) => answer !== '' && rawOutput.includes(answer));
    return {
      status: extracted.wellFormed ? 'ok' : 'bad_format',
      parsed,
      scores: { esm: esm !== undefined ? 1 : 0, ssm: ssm !== undefined ? 1 : 0 },
      explanation: {
        normalised: [
          {
            metric: 'esm',
            prediction: extracted.wellFormed
              ? [
                  ...new Set(answers.map((answer) => removeAsciiSpaces(caseAnswerFor(parsed, answer, mode)))),
                ].join(' | ')
              : '(no well-formed answer)',
            gold: answers.map(removeAsciiSpaces),
          },
          { metric: 'ssm', prediction: rawOutput, gold: answers },
        ],
        matched: { ...(esm !== undefined ? { esm } : {}), ...(ssm !== undefined ? { ssm } : {}) },
      },
    };
  },
};
