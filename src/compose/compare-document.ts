import { z } from 'zod';

/**
 * The layout version of the `compare --json` document: raised whenever a field is added, removed
 * or changes meaning (`schemas/compare.schema.json` describes it).
 */
export const COMPARE_SCHEMA_VERSION = 1;

/** A number that JSON cannot carry when it is not finite (no pairs; nothing detectable): null then. */
const figure = z.number().nullable();

const pairedDifferenceShape = {
  n: z.number().int().describe('pairs both runs count'),
  units: z.number().int().describe('units resampled together (needles, patients, queries, or samples)'),
  a: figure.describe("run A's score, a fraction in [0, 1]"),
  b: figure.describe("run B's score, a fraction in [0, 1]"),
  difference: figure.describe('B − A'),
  lower: figure.describe("the lower bound of B − A's interval (paired bootstrap, percentile)"),
  upper: figure.describe("the upper bound of B − A's interval"),
  test: z.enum(['McNemar (exact)', 'paired bootstrap']),
  onlyA: z.number().int().nullable().describe('0/1 scores: pairs right under A only'),
  onlyB: z.number().int().nullable().describe('0/1 scores: pairs right under B only'),
  p: z.number().describe('two-sided p-value of "no difference"'),
  minimumDetectable: figure.describe(
    'the smallest difference detected 80% of the time at the 5% level: (z0.975 + z0.8) × the bootstrap standard error',
  ),
};

const unpairedSchema = z.strictObject({
  count: z.number().int(),
  ids: z.array(z.string()).describe('the first 20 sample ids, sorted'),
});

/** The `compare --json` document: checked by this schema before it is printed. */
export const compareDocumentSchema = z.strictObject({
  schemaVersion: z.literal(COMPARE_SCHEMA_VERSION),
  suite: z.string(),
  variant: z.string().describe('the metric the tasks are read under (esm, ssm, mrr@10 …)'),
  a: z.strictObject({ runId: z.string(), label: z.string() }),
  b: z.strictObject({ runId: z.string(), label: z.string() }),
  resamples: z.number().int().describe('B, the bootstrap resamples'),
  seed: z.number().int(),
  level: z.number().describe('confidence level of every interval'),
  tasks: z.array(
    z.strictObject({
      task: z.string(),
      statistic: z.string(),
      ...pairedDifferenceShape,
      pHolm: z.number().describe("p after Holm's adjustment across the tasks"),
      notCounted: z.number().int().describe('samples both hold that one run does not count'),
      onlyInA: unpairedSchema.describe("the task's samples only run A holds (not paired)"),
      onlyInB: unpairedSchema.describe("the task's samples only run B holds (not paired)"),
    }),
  ),
  uncompared: z.array(z.strictObject({ task: z.string(), a: z.number().int(), b: z.number().int() })),
  overall: z
    .strictObject({ ...pairedDifferenceShape, tasks: z.number().int() })
    .nullable()
    .describe('the mean over the compared tasks, as the paper averages its datasets'),
});

export type CompareDocument = z.infer<typeof compareDocumentSchema>;

/** Non-finite numbers (NaN, ∞) as null, everywhere in a value: what JSON can carry. */
function finite(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(finite);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, finite(item)]));
  return value;
}

/** The `compare --json` document of a comparison, built by its schema (a field it lacks is a medbench bug). */
export function compareDocument(comparison: object): CompareDocument {
  const parsed = compareDocumentSchema.safeParse(
    finite({ schemaVersion: COMPARE_SCHEMA_VERSION, ...comparison }),
  );
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(
    `The comparison does not fit its schema at ${issue.path.join('.') || '(root)'}: ${issue.message} (a medbench bug; please report it).`,
  );
}

/** JSON Schema (draft 2020-12) of the `compare --json` document. */
export function compareJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = z.toJSONSchema(compareDocumentSchema, { io: 'output' });
  return { $schema, title: 'medbench compare --json', ...schema };
}
