import type { BootstrapOptions } from '../uncertainty/index.js';
import { cohenKappa, type KappaEstimate } from './cohen-kappa.js';

/** One rubric criterion of one item, as the judge and a person graded it (met or not). */
export interface CriterionGrade {
  criterion: string;
  /** The item (sample) graded; the bootstrap unit, so repeated grades of an item are drawn together. */
  item: string;
  judge: boolean;
  human: boolean;
}

export interface CriterionAgreement {
  criterion: string;
  /** Grades compared (item × criterion pairs) and the items behind them. */
  n: number;
  items: number;
  /** Share of items where judge and human agree. */
  observedAgreement: number;
  /** Share met, by the judge and by people: a judge stricter or laxer than people shows here. */
  judgeRate: number;
  humanRate: number;
  /** Cohen's kappa (yes/no, unweighted) with its bootstrap interval over items. */
  kappa: KappaEstimate;
}

/**
 * Agreement of judge and human per rubric criterion: Cohen's kappa of the met/not-met grades of
 * each criterion across items, with a bootstrap interval over items (the shared module, same
 * settings for every criterion). Criteria in order of first appearance.
 */
export function criterionAgreement(
  grades: readonly CriterionGrade[],
  options: BootstrapOptions = {},
): CriterionAgreement[] {
  const byCriterion = new Map<string, CriterionGrade[]>();
  for (const grade of grades)
    byCriterion.get(grade.criterion)?.push(grade) ?? byCriterion.set(grade.criterion, [grade]);
  return [...byCriterion].map(([criterion, rows]) => {
    const judge = rows.map((row) => row.judge);
    const human = rows.map((row) => row.human);
    const kappa = cohenKappa(judge, human, {
      ...options,
      categories: [false, true],
      units: rows.map((row) => row.item),
    });
    const share = (values: boolean[]) => values.filter(Boolean).length / values.length;
    return {
      criterion,
      n: rows.length,
      items: kappa.units,
      observedAgreement: kappa.observedAgreement,
      judgeRate: share(judge),
      humanRate: share(human),
      kappa,
    };
  });
}
