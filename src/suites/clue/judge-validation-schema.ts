import { z } from 'zod';

/** A number that may be undefined (NaN in the computation: kappa with one category, an ICC of constant scores). */
const value = z.number().nullable();

const kappaSchema = z
  .object({
    estimate: value,
    lower: value,
    upper: value,
    level: z.number(),
    method: z.string().meta({ description: 'bootstrap (percentile, over items), or none when undefined' }),
    resamples: z.number().int().nullable(),
    seed: z.number().int().nullable(),
    units: z.number().int().meta({ description: 'items resampled (the bootstrap unit is the item)' }),
    n: z.number().int().meta({ description: 'pairs compared (an item graded by two people counts twice)' }),
    observedAgreement: value,
    chanceAgreement: value,
    undefinedResamples: z.number().meta({
      description:
        'share of resamples where kappa was undefined (all drawn items in one category); above 0.05 no interval is given (lower/upper null)',
    }),
  })
  .meta({
    description: "Cohen's kappa (unweighted, met / not met) with its 95% bootstrap interval over items.",
  });

const agreementFields = {
  criterion: z.string(),
  n: z.number().int(),
  items: z.number().int(),
  observedAgreement: value,
  kappa: kappaSchema,
};

const criterionSchema = z.object({
  ...agreementFields,
  judgeRate: value.meta({ description: 'share of pairs the judge marked met' }),
  humanRate: value.meta({ description: 'share of pairs the person marked met' }),
});

const peopleCriterionSchema = z.object({
  ...agreementFields,
  firstRate: value.meta({ description: 'share met by the first reviewer of each pair (by name)' }),
  secondRate: value.meta({ description: 'share met by the second' }),
});

const iccSchema = z
  .object({
    form: z.enum(['ICC(1,1)', 'ICC(2,1)', 'ICC(3,1)']),
    estimate: value,
    lower: value,
    upper: value,
    level: z.number(),
    method: z.literal('f-distribution'),
    f: value,
    df1: value,
    df2: value,
    p: value,
  })
  .meta({ description: "An intraclass correlation with McGraw & Wong's F-distribution interval." });

const noIcc = z.object({ items: z.number().int(), reason: z.string() });

const normalSchema = z.object({
  estimate: value,
  lower: value,
  upper: value,
  level: z.number(),
  standardError: value,
});

const runSchema = z.object({
  runId: z.string(),
  label: z.string(),
  items: z
    .number()
    .int()
    .meta({ description: 'items the judge score is over: scored answers and never-answered items (0)' }),
  answered: z.number().int(),
  notAnswered: z.number().int(),
  unscored: z.number().int().meta({ description: 'answers no judge could score: in no number' }),
  labelled: z
    .number()
    .int()
    .meta({ description: 'answers a person graded that the judge scored (n of PPI)' }),
  labelledShare: z.number().meta({ description: 'labelled / answered' }),
  labelledUnscored: z.number().int(),
  judgeScore: normalSchema
    .extend({ method: z.string(), n: z.number().int() })
    .omit({ standardError: true })
    .nullable()
    .meta({ description: "The run's judge score (0–1), its interval as the report's." }),
  peopleOnly: normalSchema
    .nullable()
    .meta({ description: "The people's mean over the labelled answers, on the run's footing." }),
  corrected: normalSchema
    .extend({
      method: z.enum(['ppi', 'ppi++']),
      lambda: z.number(),
      labelled: z.number().int(),
      unlabelled: z.number().int(),
      bias: value.meta({ description: 'mean judge − people score on the labelled answers' }),
    })
    .nullable()
    .meta({
      description:
        "The judge score corrected by the people's grades (PPI++, 95% normal interval), on the run's footing.",
    }),
  enough: z.boolean().meta({ description: 'labelled ≥ 10: the corrected interval means something' }),
  warning: z.string().nullable(),
});

/** `medbench judge-validate --json` (docs/judge-validate.md): how far the judge agrees with people, and the corrected scores. */
export const judgeValidationSchema = z
  .object({
    tasks: z.array(
      z.object({
        task: z.string(),
        labelled: z.number().int().meta({ description: 'answers graded by at least one person' }),
        doubleRated: z.number().int(),
        otherRubric: z.number().int().meta({
          description:
            "current grades made by another rubric than the judge's (version or SHA-256): left out",
        }),
        criteria: z.object({
          jury: z
            .array(criterionSchema)
            .meta({ description: "the jury's majority verdict (a tie is not met) against each person" }),
          judges: z
            .record(z.string(), z.array(criterionSchema))
            .meta({ description: 'each juror alone, by label' }),
        }),
        icc: z
          .union([z.object({ items: z.number().int(), agreement: iccSchema, consistency: iccSchema }), noIcc])
          .meta({
            description: "judge score against the people's mean score per item: ICC(A,1), and ICC(C,1)",
          }),
        people: z.object({
          items: z.number().int(),
          criteria: z.array(peopleCriterionSchema),
          icc: z.union([z.object({ items: z.number().int(), oneWay: iccSchema }), noIcc]),
        }),
        runs: z.array(runSchema),
      }),
    ),
  })
  .meta({
    description:
      'medbench judge-validate --json: agreement of the LLM judge with people, and the judge score corrected by their grades.',
  });

export type JudgeValidationDocument = z.infer<typeof judgeValidationSchema>;

/** A document as JSON: undefined numbers (NaN, ±∞) as null, then checked against the schema. */
export function judgeValidationJson(document: unknown): JudgeValidationDocument {
  const plain = JSON.parse(
    JSON.stringify(document, (_, item) => (typeof item === 'number' && !Number.isFinite(item) ? null : item)),
  );
  return judgeValidationSchema.parse(plain);
}

/** JSON Schema (draft 2020-12) of `judge-validate --json` (schemas/judge-validate.schema.json). */
export function judgeValidateJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = z.toJSONSchema(judgeValidationSchema, { io: 'output' });
  return { $schema, title: 'medbench judge-validate --json', ...schema };
}
