import { z } from 'zod';

/**
 * One criterion of a rubric: what the judge checks, and the points it is worth when met.
 * Negative points mark something the answer must not do (a hallucination): met, they are taken off.
 */
export const rubricCriterionSchema = z.strictObject({
  id: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9-]*$/,
      'an id is lower-case letters, digits and dashes (e.g. "no-hallucination")',
    ),
  text: z.string().trim().min(1, 'say what the judge checks'),
  points: z
    .number()
    .int('points are whole numbers')
    .refine(
      (points) => points !== 0,
      'a criterion worth 0 points changes no score; give it points or remove it',
    ),
});

/** A rubric file (docs/judge.md): the task it grades, and its criteria. */
export const rubricSchema = z
  .strictObject({
    task: z.string().min(1),
    /** Bumped when the criteria change; the judge's run id covers the whole rubric anyway. */
    version: z.string().min(1),
    /** What the task asks of an answer, as the judge is told it. */
    definition: z.string().trim().min(1),
    /** Where the criteria come from (the task's definition, PDSQI-9's attributes …). */
    sources: z.array(z.string()).default([]),
    criteria: z.array(rubricCriterionSchema).min(1, 'a rubric needs at least one criterion'),
  })
  .superRefine((rubric, context) => {
    const seen = new Set<string>();
    rubric.criteria.forEach((criterion, index) => {
      if (seen.has(criterion.id))
        context.addIssue({
          code: 'custom',
          path: ['criteria', index, 'id'],
          message: `"${criterion.id}" is the id of an earlier criterion; ids are unique`,
        });
      seen.add(criterion.id);
    });
    if (!rubric.criteria.some((criterion) => criterion.points > 0))
      context.addIssue({
        code: 'custom',
        path: ['criteria'],
        message: 'no criterion has positive points: the score (points met / positive points) is undefined',
      });
  });

export type Rubric = z.infer<typeof rubricSchema>;
export type RubricCriterion = z.infer<typeof rubricCriterionSchema>;

/** The judge's verdict on one criterion. */
export interface CriterionVerdict {
  id: string;
  met: boolean;
  reason: string;
}

/** The points a rubric's positive criteria are worth together: the score's denominator. */
export function positivePoints(rubric: Pick<Rubric, 'criteria'>): number {
  return rubric.criteria.reduce((sum, criterion) => sum + Math.max(0, criterion.points), 0);
}

/**
 * A sample's rubric score: the points of the criteria met (negative ones subtract) over the
 * points of every positive criterion (HealthBench's `calculate_score`, openai/simple-evals
 * healthbench_eval.py), here clipped to [0, 1] per sample (HealthBench clips the mean instead:
 * docs/judge.md). `raw` is the unclipped ratio.
 */
export function rubricScore(
  rubric: Pick<Rubric, 'criteria'>,
  met: ReadonlySet<string>,
): { score: number; raw: number; points: number; possible: number } {
  const possible = positivePoints(rubric);
  const points = rubric.criteria.reduce(
    (sum, criterion) => (met.has(criterion.id) ? sum + criterion.points : sum),
    0,
  );
  const raw = points / possible;
  return { score: Math.min(1, Math.max(0, raw)), raw, points, possible };
}
