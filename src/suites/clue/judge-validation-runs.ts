import { type NormalInterval, predictionPoweredMean } from '../../metrics/agreement/index.js';
import {
  DEFAULT_LEVEL,
  type Interval,
  meanInterval,
  normalQuantile,
  standardDeviation,
} from '../../metrics/uncertainty/index.js';

/** A person's current grade of one item, by the rubric the judge graded with. */
export interface ItemGrade {
  reviewer: string;
  verdicts: Readonly<Record<string, boolean>>;
  score: number;
}

/** One item of a judged run, as the judges and people graded it. */
export interface ValidationItem {
  runId: string;
  sampleId: string;
  task: string;
  /** False for an item the model never answered (error, too long): judge score 0 by rule, nobody grades it. */
  answered: boolean;
  /** The run's judge score of the item (the metric `judge`); undefined when no judge could score it. */
  judgeScore: number | undefined;
  /** Each juror's verdicts by criterion, by label; a juror that could not score the item is absent. */
  judges: Readonly<Record<string, Readonly<Record<string, boolean>>>>;
  /** Each reviewer's current grade. */
  grades: readonly ItemGrade[];
}

/** Fewer labelled items than this, and the corrected score's interval is shown as a warning, not a number. */
export const MIN_LABELLED = 10;

/** A prediction-powered mean on the run's footing (×share of answered items), and how it was made. */
export interface CorrectedScore extends NormalInterval {
  method: 'ppi' | 'ppi++';
  lambda: number;
  /** Labelled and unlabelled answered items it is over. */
  labelled: number;
  unlabelled: number;
  /** The labelled items' mean judge − people difference (the judge's bias on them). */
  bias: number;
}

export interface RunValidation {
  runId: string;
  /** Items the run's judge score is over: scored answers and never-answered items (0); the unscored are not. */
  items: number;
  answered: number;
  notAnswered: number;
  /** Answers no judge could score: out of every number, as out of the judge score. */
  unscored: number;
  /** Answers people graded that the judge scored (n), their share of the answered ones, and those the judge could not score. */
  labelled: number;
  labelledShare: number;
  labelledUnscored: number;
  /** The run's judge score (mean over its items, as the report), with its interval. */
  judgeScore: Interval | null;
  /** The people's mean over the labelled items, on the same footing (see `docs/judge-validate.md`). */
  peopleOnly: NormalInterval | null;
  /** The judge score corrected by the people's grades (PPI++), on the same footing. */
  corrected: CorrectedScore | null;
  /** Whether the labelled items are enough (≥ MIN_LABELLED) for the corrected interval to mean much. */
  enough: boolean;
  /** What is missing, when something is. */
  warning: string | null;
}

/** An interval scaled by the share of answered items: the never-answered ones add 0 with no uncertainty. */
function onFooting<T extends NormalInterval>(interval: T, share: number): T {
  return {
    ...interval,
    estimate: interval.estimate * share,
    lower: interval.lower * share,
    upper: interval.upper * share,
    standardError: interval.standardError * share,
  };
}

/** The people's mean alone with its normal interval, mean ± z·s/√n (PPI's `labelledOnly`, when PPI cannot run). */
function labelledMean(values: readonly number[]): NormalInterval {
  const estimate = values.reduce((sum, value) => sum + value, 0) / values.length;
  const standardError = standardDeviation(values) / Math.sqrt(values.length);
  const half = normalQuantile((1 + DEFAULT_LEVEL) / 2) * standardError;
  return { estimate, lower: estimate - half, upper: estimate + half, level: DEFAULT_LEVEL, standardError };
}

function warningOf(labelled: number, unlabelled: number): string | null {
  if (labelled < 2)
    return `${labelled} labelled ${labelled === 1 ? 'item' : 'items'}: no corrected score (it needs at least 2, and ${MIN_LABELLED} or more to mean much); grade more items`;
  if (unlabelled < 2)
    return 'every answered item (but at most one) is labelled: the people-only mean is the score, no correction is needed';
  if (labelled < MIN_LABELLED)
    return `only ${labelled} labelled items (fewer than ${MIN_LABELLED}): the corrected score's interval rests on too few grades to mean much; grade more items`;
  return null;
}

/**
 * One run's judge score, the people's mean over the items they graded and the judge score
 * corrected by them (PPI++, `predictionPoweredMean`), all on the run's footing: the mean over the
 * items the judge score is over. Answers are the population PPI estimates over (labelled: graded by
 * someone — their score the mean of their reviewers' current scores; unlabelled: the rest); items
 * the model never answered score 0 by rule, so the estimate over answers is scaled by their share
 * (answered / (answered + never answered)) and the never-answered ones add 0 with no uncertainty.
 */
export function validateRun(runId: string, items: readonly ValidationItem[]): RunValidation {
  const onScore = items.filter((item) => item.judgeScore !== undefined);
  const answers = onScore.filter((item) => item.answered);
  const labelled = answers.filter((item) => item.grades.length > 0);
  const unlabelled = answers.filter((item) => item.grades.length === 0);
  const share = onScore.length > 0 ? answers.length / onScore.length : 0;
  const human = labelled.map(
    (item) => item.grades.reduce((sum, grade) => sum + grade.score, 0) / item.grades.length,
  );
  const warning = warningOf(labelled.length, unlabelled.length);
  const estimate =
    labelled.length >= 2 && unlabelled.length >= 2
      ? predictionPoweredMean({
          human,
          judge: labelled.map((item) => item.judgeScore!),
          unlabelledJudge: unlabelled.map((item) => item.judgeScore!),
        })
      : null;
  const peopleOnly = estimate?.labelledOnly ?? (labelled.length >= 2 ? labelledMean(human) : null);
  return {
    runId,
    items: onScore.length,
    answered: answers.length,
    notAnswered: onScore.length - answers.length,
    unscored: items.filter((item) => item.answered && item.judgeScore === undefined).length,
    labelled: labelled.length,
    labelledShare: answers.length > 0 ? labelled.length / answers.length : 0,
    labelledUnscored: items.filter(
      (item) => item.answered && item.judgeScore === undefined && item.grades.length > 0,
    ).length,
    judgeScore: onScore.length > 0 ? meanInterval(onScore.map((item) => item.judgeScore!)) : null,
    peopleOnly: peopleOnly ? onFooting(peopleOnly, share) : null,
    corrected: estimate
      ? onFooting(
          {
            estimate: estimate.estimate,
            lower: estimate.lower,
            upper: estimate.upper,
            level: estimate.level,
            standardError: estimate.standardError,
            method: estimate.method,
            lambda: estimate.lambda,
            labelled: estimate.labelled,
            unlabelled: estimate.unlabelled,
            bias: estimate.bias,
          },
          share,
        )
      : null,
    enough: labelled.length >= MIN_LABELLED && estimate !== null,
    warning,
  };
}
