import { z } from 'zod';
import type { LimitedRun } from './limited-runs.js';
import type { RunSettings } from './run-settings.js';
import type { RunSummary, StatusCounts } from './run-summary.js';
import type { TaskUsage } from './usage-table.js';

/** true when each type is assignable to the other: no field missing, extra, optional or typed apart. */
type Same<Left, Right> = [Left] extends [Right] ? ([Right] extends [Left] ? true : false) : false;

/**
 * A zod schema whose output is the type `Shape` exactly, checked by the compiler: a report's
 * interface and its schema cannot drift apart (`schemaOf<MedOdysseyReport>()(z.strictObject(…))`).
 */
export function schemaOf<Shape>() {
  return <Schema extends z.ZodType>(
    schema: Schema & (Same<z.output<Schema>, Shape> extends true ? unknown : never),
  ): Schema => schema;
}

/** When a report was made: an ISO 8601 time in UTC (`Date.toISOString`). */
export const generatedAtSchema = z.iso
  .datetime()
  .meta({ description: 'When the report was made (ISO 8601, UTC).' });

/** A count of samples, queries or tokens. */
export const countSchema = z.number().int().nonnegative();

/** A score's 95% interval beside the score (`ReportInterval` of metrics/uncertainty), on the score's own scale. */
export const reportIntervalSchema = z
  .strictObject({
    lower: z.number(),
    upper: z.number(),
    level: z.number().meta({ description: 'Confidence level (0.95).' }),
    method: z.enum(['bootstrap', 'wilson', 'none']).meta({
      description:
        'bootstrap: seeded percentile bootstrap over units; wilson: Wilson score interval of a proportion of independent samples; none: fewer than two units (the bounds are the score).',
    }),
    resamples: countSchema
      .nullable()
      .meta({ description: 'Bootstrap resamples (B); null unless bootstrap.' }),
    seed: z.number().int().nullable().meta({ description: "The bootstrap's seed; null unless bootstrap." }),
    units: countSchema.meta({
      description:
        'Independent units resampled: needles (NIAH), patients (LongHealth), else samples (queries).',
    }),
  })
  .meta({ description: "The score's 95% interval, on the score's scale." });

export const statusCountsSchema = schemaOf<StatusCounts>()(
  z
    .strictObject({ ok: countSchema, bad_format: countSchema, too_long: countSchema, error: countSchema })
    .meta({
      description: 'Samples per status: answered, no well-formed answer, too long to send, no answer.',
    }),
);

/** What every suite's report says of a run besides its scores (`RunSummary`), as the fields of its run object. */
export const runSummaryShape = {
  modelId: z.string().nullable().meta({
    description: "The raw model id as the provider knows it; a built-in retriever's name; null: unknown.",
  }),
  provider: z.string().nullable().meta({ description: 'The provider; null for a built-in retriever.' }),
  source: z.enum(['published', 'evaluated']).meta({
    description: "published: the authors' released outputs, imported; evaluated: run by medbench.",
  }),
  scoringMode: z.enum(['standard', 'compat']).meta({
    description: "How the run was scored: medbench's rules (standard) or the published scorer's (compat).",
  }),
  statuses: statusCountsSchema,
  settings: z
    .record(z.string(), z.unknown())
    .meta({ description: 'The generation settings stored with the run, those set only.' }),
};
schemaOf<RunSummary>()(z.strictObject(runSummaryShape));

const nullableCount = countSchema.nullable();
const nullableMoney = z.number().nonnegative().nullable();

export const taskUsageSchema = schemaOf<TaskUsage>()(
  z.strictObject({
    runId: z.string(),
    label: z.string(),
    task: z.string(),
    samples: countSchema,
    sent: countSchema,
    cached: countSchema,
    inputTokens: nullableCount,
    cachedInputTokens: nullableCount,
    cacheWriteTokens: nullableCount,
    outputTokens: nullableCount,
    reasoningTokens: nullableCount,
    cost: nullableMoney,
    explicitCacheCost: z.number().nonnegative().optional().meta({
      description: "Of the cost, the explicit prompt caches' (Gemini's): their making and storage.",
    }),
    listCost: nullableMoney,
    cachedAtInputPrice: z.boolean(),
  }),
);

export const limitedRunSchema = schemaOf<LimitedRun>()(
  z.strictObject({
    runId: z.string(),
    label: z.string(),
    limit: z.strictObject({
      first: countSchema,
      tasks: z.record(z.string(), z.strictObject({ kept: countSchema, of: countSchema })),
    }),
    text: z.string(),
  }),
);

export const runSettingsSchema = schemaOf<RunSettings>()(
  z.strictObject({
    runId: z.string(),
    label: z.string(),
    settings: z.record(z.string(), z.unknown()),
    text: z.string(),
  }),
);
