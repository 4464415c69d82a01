import { type Rubric, rubricScore } from './rubric.js';

/**
 * How a jury's verdicts become a sample's score: `mean` of the judges' rubric scores, or
 * `majority` per criterion (met when more than half of the judges that scored say so; a tie is
 * not met) and the rubric score of that majority.
 */
export type JuryAggregation = 'mean' | 'majority';

export const JURY_AGGREGATIONS: readonly JuryAggregation[] = ['mean', 'majority'];

/** One judge's grade of a sample: the criteria it found met, or why it could not be scored. */
export type JudgeGrade = { met: ReadonlySet<string> } | { unscored: string };

/**
 * The jury's score of one sample from the judges that scored it; unscored (with every judge's
 * reason) only when none did. A judge that could not score is left out, never counted as 0.
 */
export function juryScore(
  rubric: Pick<Rubric, 'criteria'>,
  grades: readonly JudgeGrade[],
  aggregation: JuryAggregation,
): { score: number; judges: number } | { unscored: string } {
  const scored = grades.flatMap((grade) => ('met' in grade ? [grade.met] : []));
  if (scored.length === 0)
    return {
      unscored: grades.map((grade) => ('unscored' in grade ? grade.unscored : '')).join('; ') || 'no judge',
    };
  if (aggregation === 'mean') {
    const total = scored.reduce((sum, met) => sum + rubricScore(rubric, met).score, 0);
    return { score: total / scored.length, judges: scored.length };
  }
  const majority = new Set(
    rubric.criteria
      .filter((criterion) => 2 * scored.filter((met) => met.has(criterion.id)).length > scored.length)
      .map((criterion) => criterion.id),
  );
  return { score: rubricScore(rubric, majority).score, judges: scored.length };
}
