import { z } from 'zod';
import type { EffectiveLengthEstimate } from '../../metrics/effective-length.js';
import { countSchema, schemaOf } from '../../report/report-schema.js';
import type { EffectiveLengthRow, EffectiveLengthSettings } from './effective-lengths.js';

const estimateSchema = schemaOf<EffectiveLengthEstimate>()(
  z.strictObject({
    threshold: z
      .number()
      .nullable()
      .meta({ description: 'The score ×100 a level must reach; null: the relative rule has no base (0).' }),
    passing: countSchema.meta({ description: 'How many levels, from the shortest, all reach it.' }),
    length: z
      .number()
      .nullable()
      .meta({ description: 'The longest of them; null: not even the shortest level.' }),
    interval: z
      .strictObject({
        lowerPassing: countSchema,
        upperPassing: countSchema,
        lower: z.number().nullable(),
        upper: z.number().nullable(),
        level: z.number(),
        method: z.enum(['bootstrap', 'none']),
        resamples: z.number().nullable(),
        seed: z.number().nullable(),
      })
      .optional()
      .meta({
        description:
          'The 95% percentile bootstrap interval over resampled units (NIAH needles, other samples): levels passed (lower rounded down, upper up) and the lengths they stand for; absent without intervals.',
      }),
  }),
);

export const effectiveLengthRowSchema = schemaOf<EffectiveLengthRow>()(
  z.strictObject({
    dataset: z.string(),
    task: z.string(),
    language: z.string(),
    levels: z.array(
      z.strictObject({
        level: z.number(),
        score: z.number().nullable().meta({ description: 'The main ESM score ×100; null: not counted.' }),
        tokens: z
          .strictObject({ mean: z.number(), min: z.number(), max: z.number(), known: countSchema })
          .nullable()
          .meta({ description: "The prompts' tokens under the model's own tokenizer; null: not recorded." }),
      }),
    ),
    fixed: estimateSchema,
    relative: estimateSchema,
  }),
);

export const effectiveLengthSettingsSchema = schemaOf<EffectiveLengthSettings>()(
  z.strictObject({
    threshold: z.number().meta({ description: "RULER's fixed threshold, a score ×100 (default 85.6)." }),
    fraction: z
      .number()
      .meta({ description: "NoLiMa's share of the shortest level's score (default 0.85)." }),
  }),
);
