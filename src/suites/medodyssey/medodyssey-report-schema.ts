import { z } from 'zod';
import {
  countSchema,
  generatedAtSchema,
  reportIntervalSchema,
  runSummaryShape,
  schemaOf,
  statusCountsSchema,
} from '../../report/report-schema.js';
import type { CountingTable, MedicalScore, NiahErrorTable, NiahTable, Tally } from './aggregate.js';
import { closedBookSchema, needleOverlapSchema } from './control-schema.js';
import { effectiveLengthRowSchema, effectiveLengthSettingsSchema } from './effective-length-schema.js';
import type { MedOdysseyReport, MissingOutputs } from './medodyssey-report.js';

const tallySchema = schemaOf<Tally>()(
  z.strictObject({
    correct: z.number().nonnegative(),
    counted: countSchema,
    interval: reportIntervalSchema.optional().meta({ description: 'The 95% interval of correct / counted.' }),
  }),
);
const byKey = <Schema extends z.ZodType>(schema: Schema) => z.record(z.string(), schema);
/** language → metric (`esm`, `ssm`) → a table. */
const byLanguageAndMetric = <Schema extends z.ZodType>(schema: Schema) => byKey(byKey(schema));

const niahTableSchema = schemaOf<NiahTable>()(
  z.strictObject({
    language: z.string(),
    metric: z.string(),
    levels: z.array(z.number()),
    depths: z.array(z.number()),
    cells: byKey(byKey(tallySchema.nullable())).meta({
      description: "cells[depth][level]; null where the level exceeds the model's window.",
    }),
    byLevel: byKey(tallySchema.nullable()),
    byDepth: byKey(tallySchema),
    all: tallySchema,
    excludedLevels: z.array(z.number()),
    statuses: statusCountsSchema,
  }),
);

const countingTableSchema = schemaOf<CountingTable>()(
  z.strictObject({
    language: z.string(),
    metric: z.string(),
    byType: byKey(tallySchema),
    byLevel: byKey(tallySchema),
    all: tallySchema,
    statuses: statusCountsSchema,
  }),
);

/** A medical cell's figures: micro P/R/F1 ×100 and their sums, or accuracy ×100 and correct of counted. */
const medicalFigures = {
  precision: z.number().optional(),
  recall: z.number().optional(),
  f1: z.number().optional(),
  tp: z.number().optional(),
  fp: z.number().optional(),
  fn: z.number().optional(),
  accuracy: z.number().optional(),
  correct: z.number().optional(),
  counted: countSchema,
};

const medicalIntervalsSchema = z
  .strictObject({
    precision: reportIntervalSchema.optional(),
    recall: reportIntervalSchema.optional(),
    f1: reportIntervalSchema.optional(),
    accuracy: reportIntervalSchema.optional(),
  })
  .optional()
  .meta({
    description: '95% intervals of the figures, ×100: micro P/R/F1 by the bootstrap, accuracy by Wilson.',
  });

const medicalScoreSchema = schemaOf<MedicalScore>()(
  z.strictObject({
    task: z.string(),
    language: z.string(),
    metric: z.string(),
    ...medicalFigures,
    statuses: statusCountsSchema,
    own: z
      .strictObject({ ...medicalFigures, intervals: medicalIntervalsSchema })
      .optional()
      .meta({ description: "The same cell under medbench's own rules, where they give another number." }),
    intervals: medicalIntervalsSchema,
  }),
);

const missingOutputsSchema = schemaOf<MissingOutputs>()(
  z.strictObject({
    file: z.string(),
    task: z.string(),
    language: z.string(),
    setting: z.string().nullable(),
    outputs: countSchema,
    expected: countSchema,
    missing: z.array(z.string()),
  }),
);

const errorTallySchema = z.strictObject({ ...tallySchema.shape, errors: countSchema });

const niahErrorTableSchema = schemaOf<NiahErrorTable>()(
  z.strictObject({
    language: z.string(),
    metric: z.string(),
    counted: countSchema,
    errors: countSchema,
    byNeedleType: byKey(errorTallySchema),
    byDepth: byKey(errorTallySchema),
    byNeedleTypeAndDepth: byKey(byKey(errorTallySchema)),
    badFormat: countSchema,
    tooLong: countSchema,
  }),
);

const runReportSchema = z.strictObject({
  runId: z.string(),
  label: z.string().meta({ description: "The display label (the paper's name for published models)." }),
  ...runSummaryShape,
  scoring: z.enum(['compat', 'own']),
  contextWindow: countSchema.nullable(),
  datasetId: z.string(),
  createdAt: z.string(),
  samples: countSchema,
  missingOutputs: z.array(missingOutputsSchema),
  usage: z.strictObject({
    inputTokens: countSchema.nullable(),
    outputTokens: countSchema.nullable(),
    cost: z.number().nullable(),
  }),
  niah: byLanguageAndMetric(niahTableSchema).meta({ description: 'Tables A2/A3.' }),
  counting: byLanguageAndMetric(countingTableSchema).meta({ description: 'Table 3.' }),
  medical: byLanguageAndMetric(medicalScoreSchema).meta({
    description: '"kg-en" … → metric → Table 2 (esm) / Table A4 (ssm) cell.',
  }),
  medicalByLevel: byKey(byKey(z.number())).meta({ description: 'Figure 5: dataset → level → ESM score.' }),
  medicalByLevelSsm: byKey(byKey(z.number())).meta({ description: 'Figure A4: the same with SSM.' }),
  medicalByLevelIntervals: byKey(byKey(reportIntervalSchema))
    .optional()
    .meta({ description: "Figure 5's 95% intervals, ×100: dataset → level → interval." }),
  medicalByLevelSsmIntervals: byKey(byKey(reportIntervalSchema))
    .optional()
    .meta({ description: "Figure A4's 95% intervals, ×100." }),
  overview: byKey(z.number().nullable()).meta({
    description: "Figure 2: each of the ten datasets' main ESM score ×100, null when not run.",
  }),
  overviewIntervals: byKey(reportIntervalSchema.nullable())
    .optional()
    .meta({ description: "The overview's 95% intervals, ×100; null where the score is." }),
  countingSettings: byKey(z.strictObject({ all: tallySchema, byType: byKey(tallySchema) })),
  niahErrors: byLanguageAndMetric(niahErrorTableSchema),
  effectiveLengths: z.array(effectiveLengthRowSchema).meta({
    description: "Each dataset's effective length under RULER's and NoLiMa's rules (docs/long-context.md).",
  }),
  niahErrorIntervals: byLanguageAndMetric(
    z.strictObject({
      errors: reportIntervalSchema,
      byNeedleType: byKey(reportIntervalSchema),
      byDepth: byKey(reportIntervalSchema),
    }),
  )
    .optional()
    .meta({
      description: "The NIAH error analysis's 95% intervals of the share wrong, ×100, resampled by needle.",
    }),
});

/** The MedOdyssey report document (`medbench report --json` prints it with the sections every suite has). */
export const medodysseyReportSchema = schemaOf<MedOdysseyReport>()(
  z.strictObject({
    suite: z.literal('medodyssey'),
    generatedAt: generatedAtSchema,
    effectiveLength: effectiveLengthSettingsSchema,
    runs: z.array(runReportSchema),
    closedBook: closedBookSchema,
    needleOverlap: needleOverlapSchema,
    countingAblationIntervals: byKey(
      byKey(z.strictObject({ all: reportIntervalSchema, byType: byKey(reportIntervalSchema) })),
    )
      .optional()
      .meta({
        description:
          "Figure 6's tallies of a model's runs merged (model → setting; a setting two runs or more give): the 95% intervals of the fraction correct, the merged rows resampled by sample (a sample both runs hold is one unit).",
      }),
  }),
);
