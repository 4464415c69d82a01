import type { z } from 'zod';
import type { ScoredOutput } from '../../core/sample.js';
import type { ScoreInput, Task } from '../../core/task.js';
import {
  extractIcd10Codes,
  icd10ApproximateMatch,
  icd10ExactMatch,
  validCodeRate,
} from '../../metrics/icd10.js';
import { rouge } from '../../metrics/rouge.js';
import { setF1 } from '../../metrics/set-f1.js';
import { mednliCorrect } from './answers.js';
import type { ConceptMatcher } from './concept-matcher.js';
import { choiceGold, codesGold, labelGold, referenceGold } from './gold.js';
import { type ClueProtocol, postprocessOutput } from './protocols.js';

/** Resources some metrics need; a missing one leaves its metric out (reported as not computed). */
export interface ClueResources {
  /** Concept matcher over the user's MRCONSO.RRF, for UMLS F1. */
  umls?: ConceptMatcher;
  /** The official ICD-10-CM code table, for the valid-code rate. */
  icd10Codes?: ReadonlySet<string>;
  /**
   * Task → its BERTScore encoder (name, layer, file fingerprint), for the tasks that get one.
   * Scoring is synchronous, so BERTScore is added after generation; failed samples score 0.
   */
  bertscore?: Partial<Record<string, string>>;
}

/**
 * Why each resource-bound metric was not computed, for a run's record and its report: keys are
 * `<task>.<metric>`, or a metric alone when it is missing for every task.
 */
export function notComputed(
  resources: ClueResources,
  tasks: readonly string[],
  bertscoreMissing: Partial<Record<string, string>> = {},
): Record<string, string> {
  const umlsTasks = tasks.includes('problem-summary') || tasks.includes('medisumqa');
  return {
    ...Object.fromEntries(Object.entries(bertscoreMissing).map(([task, why]) => [`${task}.bertscore`, why!])),
    ...(resources.umls || !umlsTasks ? {} : { umls: 'no MRCONSO.RRF given (--umls)' }),
    ...(resources.icd10Codes || !tasks.includes('medisumcode')
      ? {}
      : { validCodes: 'no ICD-10-CM code file given (--icd10)' }),
  };
}

/** What a task needs to know of the run: the protocol's rules, and the model (Phi's end marker). */
export interface ClueScoring {
  protocol: ClueProtocol;
  modelId: string;
}

/** LongHealth's answer: the letter after the first "The correct answer is " followed by a colon. */
export function longHealthChoiceOf(output: string): string | undefined {
  // Python's \w is Unicode-aware.
  return /The correct answer is ([\p{L}\p{N}_]):/u.exec(output)?.[1];
}

function generationTask(
  name: 'meqsum' | 'problem-summary' | 'medisumqa',
  options: { umls: boolean; resources: ClueResources; scoring: ClueScoring },
): Task<z.infer<typeof referenceGold>> {
  const rules = options.scoring.protocol.tasks[name];
  const metrics = [
    'rougeL',
    'rouge1',
    'rouge2',
    ...(options.resources.bertscore?.[name] ? ['bertscore'] : []),
    ...(options.umls ? ['umls'] : []),
  ];
  return {
    suite: 'clue',
    name,
    metrics,
    primaryMetric: CLUE_PRIMARY_METRICS[name],
    gold: referenceGold,
    failedScores: () =>
      Object.fromEntries(
        metrics.filter((metric) => metric !== 'umls' || options.resources.umls).map((metric) => [metric, 0]),
      ),
    score({ sample, rawOutput }: ScoreInput<z.infer<typeof referenceGold>>): ScoredOutput {
      const prediction = postprocessOutput(rawOutput, rules.postprocess, options.scoring.modelId);
      const { reference } = sample.gold;
      const scores = rouge(prediction, reference);
      const result: Record<string, number> = {
        rougeL: scores.rougeL.f,
        rouge1: scores.rouge1.f,
        rouge2: scores.rouge2.f,
      };
      if (options.umls && options.resources.umls) {
        result.umls = setF1(
          options.resources.umls.concepts(prediction),
          options.resources.umls.concepts(reference),
        ).f1;
      }
      return { status: 'ok', parsed: prediction, scores: result };
    },
  };
}

/** The metric each CLUE task shows first per item. */
export const CLUE_PRIMARY_METRICS = {
  mednli: 'accuracy',
  longhealth: 'accuracy',
  meqsum: 'rougeL',
  'problem-summary': 'rougeL',
  medisumqa: 'rougeL',
  medisumcode: 'emF1',
} as const;

/** The six CLUE tasks under a protocol, scored per item (fractions in [0, 1]; reports show ×100). */
export function createClueTasks(resources: ClueResources, scoring: ClueScoring): Record<string, Task> {
  const { protocol, modelId } = scoring;
  return {
    mednli: {
      suite: 'clue',
      name: 'mednli',
      metrics: ['accuracy'],
      primaryMetric: CLUE_PRIMARY_METRICS.mednli,
      // Right or wrong: over --epochs, the answer most epochs give.
      epochReducer: 'majority',
      gold: labelGold,
      failedScores: () => ({ accuracy: 0 }),
      score({ sample, rawOutput }) {
        const { label } = sample.gold;
        const output = postprocessOutput(rawOutput, protocol.tasks.mednli.postprocess, modelId);
        return {
          status: 'ok',
          parsed: output.trim(),
          scores: { accuracy: mednliCorrect(output, label) ? 1 : 0 },
        };
      },
    } satisfies Task<z.infer<typeof labelGold>>,
    longhealth: {
      suite: 'clue',
      name: 'longhealth',
      metrics: ['accuracy'],
      primaryMetric: CLUE_PRIMARY_METRICS.longhealth,
      // Right or wrong: over --epochs, the answer most epochs give.
      epochReducer: 'majority',
      gold: choiceGold,
      failedScores: () => ({ accuracy: 0 }),
      score({ sample, rawOutput }) {
        // paper-2024 cuts Phi's end marker in sub-task 1 only.
        const phiCut =
          protocol.name === 'paper-2024' &&
          sample.params.subtask === 1 &&
          modelId.toLowerCase().includes('phi') &&
          rawOutput.includes(' <|end|>');
        const output = phiCut ? rawOutput.split(' <|end|>')[0]! : rawOutput;
        const choice = longHealthChoiceOf(output);
        const { choice: gold } = sample.gold;
        return {
          status: choice ? 'ok' : 'bad_format',
          parsed: choice ?? null,
          scores: { accuracy: choice === gold ? 1 : 0 },
        };
      },
    } satisfies Task<z.infer<typeof choiceGold>>,
    meqsum: generationTask('meqsum', { umls: false, resources, scoring }),
    'problem-summary': generationTask('problem-summary', { umls: true, resources, scoring }),
    medisumqa: generationTask('medisumqa', { umls: true, resources, scoring }),
    medisumcode: {
      suite: 'clue',
      name: 'medisumcode',
      metrics: ['emF1', 'apF1', 'validCodes'],
      primaryMetric: CLUE_PRIMARY_METRICS.medisumcode,
      gold: codesGold,
      failedScores: () => ({ emF1: 0, apF1: 0, ...(resources.icd10Codes ? { validCodes: 0 } : {}) }),
      score({ sample, rawOutput }) {
        const { codes } = sample.gold;
        const output = postprocessOutput(rawOutput, protocol.tasks.medisumcode.postprocess, modelId);
        const predicted = extractIcd10Codes(output);
        return {
          status: 'ok',
          parsed: predicted,
          scores: {
            emF1: icd10ExactMatch(predicted, codes).f1,
            apF1: icd10ApproximateMatch(predicted, codes).f1,
            ...(resources.icd10Codes ? { validCodes: validCodeRate(predicted, resources.icd10Codes) } : {}),
          },
        };
      },
    } satisfies Task<z.infer<typeof codesGold>>,
  };
}
