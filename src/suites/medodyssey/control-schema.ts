import { z } from 'zod';
import { countSchema, reportIntervalSchema, schemaOf } from '../../report/report-schema.js';
import type { ClosedBookComparison } from './closed-book-report.js';
import type { NeedleOverlapReport } from './overlap-terciles.js';
import { TERCILES } from './overlap-terciles.js';
import type { ScoreWithInterval } from './scored-share.js';

const scoreSchema = schemaOf<ScoreWithInterval>()(
  z.strictObject({
    score: z.number().nullable().meta({ description: 'The score ×100; null when no result counts.' }),
    samples: countSchema,
    interval: reportIntervalSchema.optional(),
  }),
);

/** `closedBook` of the MedOdyssey report: closed-book runs beside the model's run with context. */
export const closedBookSchema = z
  .array(
    schemaOf<ClosedBookComparison>()(
      z.strictObject({
        closedBookRunId: z.string(),
        contextRunId: z.string().nullable().meta({
          description: 'The same dataset and model without --closed-book; null: none in the store.',
        }),
        label: z.string(),
        tasks: z.array(
          z.strictObject({
            key: z.string().meta({ description: 'En.NIAH, Zh.KG …' }),
            statistic: z.string(),
            closedBook: scoreSchema.meta({ description: 'Without context.' }),
            known: z.array(z.string()).meta({
              description:
                'Sample ids answered right without context (micro F1 tasks: every gold item and nothing else).',
            }),
            withContext: scoreSchema.nullable().meta({ description: 'With context, every item.' }),
            withContextUnknownOnly: scoreSchema
              .nullable()
              .meta({ description: 'With context, the known items left out.' }),
          }),
        ),
      }),
    ),
  )
  .optional()
  .meta({ description: 'Closed-book runs (run --closed-book) beside the run with context; absent: none.' });

const byTercile = z.strictObject(
  Object.fromEntries(TERCILES.map((tercile) => [tercile, scoreSchema])) as Record<
    (typeof TERCILES)[number],
    typeof scoreSchema
  >,
);

/** `needleOverlap` of the MedOdyssey report: NIAH accuracy by needle–question overlap tercile. */
export const needleOverlapSchema = schemaOf<NeedleOverlapReport>()(
  z.strictObject({
    needles: z.array(
      z.strictObject({
        language: z.string(),
        needleId: z.number().int(),
        needleType: z.string().nullable(),
        overlap: z.number().min(0).max(1).meta({
          description:
            "NoLiMa's ROUGE-1 precision: the share of the question's content tokens found in the needle.",
        }),
        tercile: z.enum(TERCILES),
      }),
    ),
    cuts: z.record(z.string(), z.array(z.number()).length(2)).meta({
      description: "Per language, type-7 quantiles at 1/3 and 2/3 of its needles' overlaps.",
    }),
    runs: z.array(
      z.strictObject({
        runId: z.string(),
        label: z.string(),
        byLanguage: z.record(z.string(), byTercile),
      }),
    ),
  }),
)
  .optional()
  .meta({ description: 'NIAH ESM accuracy by overlap tercile; absent: no NIAH result carries an overlap.' });
