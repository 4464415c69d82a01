import type { ScoredOutput } from '../../core/sample.js';
import type { ScoreInput, Task } from '../../core/task.js';
import type { ConceptMatcher } from '../../metrics/concept-matcher.js';
import {
  extractIcd10Codes,
  icd10ApproximateMatch,
  icd10ExactMatch,
  validCodeRate,
} from '../../metrics/icd10.js';
import { rouge } from '../../metrics/rouge.js';
import { setF1 } from '../../metrics/set-f1.js';
import { longHealthChoice, mednliCorrect } from './answers.js';

/** Resources some metrics need; a missing one leaves its metric out (reported as not computed). */
export interface ClueResources {
  /** Concept matcher over the user's MRCONSO.RRF, for UMLS F1. */
  umls?: ConceptMatcher;
  /** The official ICD-10-CM code table, for the valid-code rate. */
  icd10Codes?: ReadonlySet<string>;
  /**
   * The BERTScore encoder's name and revision, when one is given. Scoring is synchronous, so
   * BERTScore is added after generation by `bertScoreF1s`; failed samples score 0.
   */
  bertscore?: string;
}

/** Why each resource-bound metric was not computed, for a run's record and its report. */
export function notComputed(resources: ClueResources): Record<string, string> {
  return {
    ...(resources.bertscore ? {} : { bertscore: 'no local encoder given (--bertscore-model)' }),
    ...(resources.umls ? {} : { umls: 'no MRCONSO.RRF given (--umls)' }),
    ...(resources.icd10Codes ? {} : { validCodes: 'no ICD-10-CM code file given (--icd10)' }),
  };
}

/** The label the shots teach a model to write ("Question: …", "Answer: …") is not part of the answer. */
export function stripAnswerLabel(output: string): string {
  return output.trim().replace(/^(?:question|answer)\s*:\s*/i, '');
}

function generationTask(name: string, options: { umls: boolean; resources: ClueResources }): Task {
  const metrics = [
    'rougeL',
    'rouge1',
    'rouge2',
    ...(options.resources.bertscore ? ['bertscore'] : []),
    ...(options.umls ? ['umls'] : []),
  ];
  return {
    suite: 'clue',
    name,
    metrics,
    failedScores: () =>
      Object.fromEntries(
        metrics.filter((metric) => metric !== 'umls' || options.resources.umls).map((metric) => [metric, 0]),
      ),
    score({ sample, rawOutput }: ScoreInput): ScoredOutput {
      const prediction = stripAnswerLabel(rawOutput);
      const reference = (sample.gold as { reference: string }).reference;
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

/** The six CLUE tasks, scored per item (fractions in [0, 1]; reports show ×100). */
export function createClueTasks(resources: ClueResources): Record<string, Task> {
  return {
    mednli: {
      suite: 'clue',
      name: 'mednli',
      metrics: ['accuracy'],
      failedScores: () => ({ accuracy: 0 }),
      score({ sample, rawOutput }) {
        const { label } = sample.gold as { label: string };
        return {
          status: 'ok',
          parsed: rawOutput.trim(),
          scores: { accuracy: mednliCorrect(rawOutput, label) ? 1 : 0 },
        };
      },
    },
    longhealth: {
      suite: 'clue',
      name: 'longhealth',
      metrics: ['accuracy'],
      failedScores: () => ({ accuracy: 0 }),
      score({ sample, rawOutput }) {
        const choice = longHealthChoice(rawOutput);
        const { choice: gold } = sample.gold as { choice: string };
        return {
          status: choice ? 'ok' : 'bad_format',
          parsed: choice ?? null,
          scores: { accuracy: choice === gold ? 1 : 0 },
        };
      },
    },
    meqsum: generationTask('meqsum', { umls: false, resources }),
    'problem-summary': generationTask('problem-summary', { umls: true, resources }),
    medisumqa: generationTask('medisumqa', { umls: true, resources }),
    medisumcode: {
      suite: 'clue',
      name: 'medisumcode',
      metrics: ['emF1', 'apF1', 'validCodes'],
      failedScores: () => ({ emF1: 0, apF1: 0, ...(resources.icd10Codes ? { validCodes: 0 } : {}) }),
      score({ sample, rawOutput }) {
        const { codes } = sample.gold as { codes: string[] };
        const predicted = extractIcd10Codes(rawOutput);
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
    },
  };
}
