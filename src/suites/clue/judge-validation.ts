import {
  type CriterionAgreement,
  type CriterionGrade,
  criterionAgreement,
  type IccEstimate,
  intraclassCorrelation,
} from '../../metrics/agreement/index.js';
import type { BootstrapOptions } from '../../metrics/uncertainty/index.js';
import { type RunValidation, type ValidationItem, validateRun } from './judge-validation-runs.js';

export type { ItemGrade, ValidationItem } from './judge-validation-runs.js';

/** An ICC with the items it is over, or why there is none. */
export type IccResult =
  | { items: number; agreement: IccEstimate; consistency: IccEstimate }
  | { items: number; reason: string };

/** Agreement of two people on one criterion (Cohen's kappa over the pairs of double-rated items). */
export type PeopleAgreement = Omit<CriterionAgreement, 'judgeRate' | 'humanRate'> & {
  firstRate: number;
  secondRate: number;
};

export interface TaskValidation {
  task: string;
  /** Items with at least one grade, and with two or more (double-rated). */
  labelled: number;
  doubleRated: number;
  /** Judge vs people per criterion: the jury's majority verdict, and each juror alone. */
  criteria: { jury: CriterionAgreement[]; judges: Record<string, CriterionAgreement[]> };
  /** ICC of the judge score against the people's mean score of an item. */
  icc: IccResult;
  /** People vs people on the double-rated items: per criterion, and ICC(1,1) of their scores. */
  people: {
    items: number;
    criteria: PeopleAgreement[];
    icc: { items: number; oneWay: IccEstimate } | { items: number; reason: string };
  };
  runs: RunValidation[];
}

/**
 * The jury's verdict on each criterion: met when more than half of the jurors that scored the item
 * say so (a tie is not met), as `--aggregation majority` counts; undefined when none scored it.
 */
export function juryVerdicts(judges: ValidationItem['judges']): Record<string, boolean> | undefined {
  const jurors = Object.values(judges);
  if (jurors.length === 0) return undefined;
  const ids = new Set(jurors.flatMap((verdicts) => Object.keys(verdicts)));
  return Object.fromEntries(
    [...ids].map((id) => [id, 2 * jurors.filter((verdicts) => verdicts[id] === true).length > jurors.length]),
  );
}

/** Every (criterion, item, judge verdict, person's verdict) of the graded items: one per reviewer and criterion. */
function gradePairs(
  items: readonly ValidationItem[],
  verdictsOf: (item: ValidationItem) => Readonly<Record<string, boolean>> | undefined,
): CriterionGrade[] {
  return items.flatMap((item) => {
    const judge = verdictsOf(item);
    if (!judge) return [];
    return item.grades.flatMap((grade) =>
      Object.entries(grade.verdicts).flatMap(([criterion, human]) =>
        criterion in judge
          ? [{ criterion, item: `${item.runId}\n${item.sampleId}`, judge: judge[criterion]!, human }]
          : [],
      ),
    );
  });
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The ICC of rows of ratings, or why there is none (fewer than 2 items). */
function iccOf(rows: number[][], what: string) {
  if (rows.length < 2)
    return { items: rows.length, reason: `needs at least 2 ${what}, got ${rows.length}` } as const;
  const spread = rows.flat().some((value) => value !== rows[0]![0]);
  if (!spread) return { items: rows.length, reason: 'undefined: every score is the same' } as const;
  try {
    return intraclassCorrelation(rows);
  } catch (error) {
    // Scores that vary too little for the F test (a zero mean square): no interval to give.
    if (error instanceof RangeError)
      return { items: rows.length, reason: `undefined: ${error.message}` } as const;
    throw error;
  }
}

/** Pairs of reviewers on double-rated items (every pair of an item's reviewers, by name). */
function peoplePairs(items: readonly ValidationItem[]): CriterionGrade[] {
  return items.flatMap((item) => {
    const grades = [...item.grades].sort((a, b) => a.reviewer.localeCompare(b.reviewer));
    return grades.flatMap((first, index) =>
      grades.slice(index + 1).flatMap((second) =>
        Object.entries(first.verdicts).flatMap(([criterion, met]) =>
          criterion in second.verdicts
            ? [
                {
                  criterion,
                  item: `${item.runId}\n${item.sampleId}`,
                  judge: met,
                  human: second.verdicts[criterion]!,
                },
              ]
            : [],
        ),
      ),
    );
  });
}

/** People against people on the items two or more graded: per-criterion kappa, and ICC(1,1) of the first two (by name). */
function peopleAgreement(
  items: readonly ValidationItem[],
  options: BootstrapOptions,
): TaskValidation['people'] {
  const double = items.filter((item) => item.grades.length >= 2);
  const criteria = criterionAgreement(peoplePairs(double), options).map(
    ({ judgeRate, humanRate, ...rest }) => ({ ...rest, firstRate: judgeRate, secondRate: humanRate }),
  );
  const rows = double.map((item) =>
    [...item.grades]
      .sort((a, b) => a.reviewer.localeCompare(b.reviewer))
      .slice(0, 2)
      .map((grade) => grade.score),
  );
  const icc = iccOf(rows, 'double-rated items');
  return {
    items: double.length,
    criteria,
    icc: 'reason' in icc ? icc : { items: icc.items, oneWay: icc.oneWay },
  };
}

/**
 * How far a judge can be trusted on one task, from people's grades of some of its items: judge vs
 * people per criterion (Cohen's kappa, the jury's majority and each juror), the ICC of the judge
 * score against the people's mean score, people vs people on double-rated items, and each run's
 * judge score corrected by the graded items (prediction-powered inference).
 */
export function validateTask(
  task: string,
  items: readonly ValidationItem[],
  options: BootstrapOptions = {},
): TaskValidation {
  const graded = items.filter((item) => item.answered && item.grades.length > 0);
  const labels = [...new Set(items.flatMap((item) => Object.keys(item.judges)))].sort();
  const scored = graded.filter((item) => item.judgeScore !== undefined);
  const icc = iccOf(
    scored.map((item) => [item.judgeScore!, mean(item.grades.map((grade) => grade.score))]),
    'graded items the judge scored',
  );
  return {
    task,
    labelled: graded.length,
    doubleRated: graded.filter((item) => item.grades.length >= 2).length,
    criteria: {
      jury: criterionAgreement(
        gradePairs(graded, (item) => juryVerdicts(item.judges)),
        options,
      ),
      judges: Object.fromEntries(
        labels.map((label) => [
          label,
          criterionAgreement(
            gradePairs(graded, (item) => item.judges[label]),
            options,
          ),
        ]),
      ),
    },
    icc: 'reason' in icc ? icc : { items: icc.items, agreement: icc.agreement, consistency: icc.consistency },
    people: peopleAgreement(graded, options),
    runs: [...new Set(items.map((item) => item.runId))].map((runId) =>
      validateRun(
        runId,
        items.filter((item) => item.runId === runId),
      ),
    ),
  };
}
