import { z } from 'zod';
import type { CriterionVerdict, Rubric } from './rubric.js';

/** What the judge must answer: one JSON object, a verdict per criterion (docs/judge.md). */
export const judgeAnswerSchema = z.strictObject({
  criteria: z.array(
    z.strictObject({
      id: z.string(),
      met: z.boolean(),
      reason: z.string(),
    }),
  ),
});

/** The same schema as JSON Schema, for the judge's prompt (and providers that take one). */
export const JUDGE_ANSWER_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['criteria'],
  properties: {
    criteria: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'met', 'reason'],
        properties: { id: { type: 'string' }, met: { type: 'boolean' }, reason: { type: 'string' } },
      },
    },
  },
} as const;

/** A judge's answer read against the rubric: its verdicts, or why it cannot be scored. */
export type JudgeReading = { verdicts: CriterionVerdict[] } | { unscored: string };

/** The JSON object of an answer: the whole text, or inside one ```json fence. */
function jsonText(raw: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(raw);
  return (fenced ? fenced[1]! : raw).trim();
}

/**
 * Reads a judge's raw answer: valid JSON, the schema, and exactly one verdict for every criterion
 * of the rubric. Anything else is unscored with its reason, never a score of 0.
 */
export function readJudgeAnswer(raw: string, rubric: Pick<Rubric, 'criteria'>): JudgeReading {
  let value: unknown;
  try {
    value = JSON.parse(jsonText(raw));
  } catch (error) {
    return { unscored: `not JSON: ${(error as Error).message}` };
  }
  const parsed = judgeAnswerSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : 'the answer';
    return { unscored: `not the verdict schema: ${where}: ${issue.message}` };
  }
  const known = new Set(rubric.criteria.map((criterion) => criterion.id));
  const byId = new Map<string, CriterionVerdict>();
  for (const verdict of parsed.data.criteria) {
    if (!known.has(verdict.id))
      return { unscored: `a verdict for "${verdict.id}", which the rubric does not have` };
    if (byId.has(verdict.id)) return { unscored: `two verdicts for "${verdict.id}"` };
    byId.set(verdict.id, verdict);
  }
  const missing = rubric.criteria
    .filter((criterion) => !byId.has(criterion.id))
    .map((criterion) => criterion.id);
  if (missing.length > 0) return { unscored: `no verdict for ${missing.map((id) => `"${id}"`).join(', ')}` };
  return { verdicts: rubric.criteria.map((criterion) => byId.get(criterion.id)!) };
}
