import { z } from 'zod';
import {
  countSchema,
  generatedAtSchema,
  reportIntervalSchema,
  runSummaryShape,
  schemaOf,
} from '../../report/report-schema.js';
import { clueJudgeReportSchema } from './clue-judge-report.js';
import { judgeProbesSchema } from './clue-judge-sensitivity.js';
import type { ClueReport } from './clue-report.js';

/** dataset → metric → a number (×100). */
const byDatasetAndMetric = z.record(z.string(), z.record(z.string(), z.number()));

const clueRunReportSchema = z.strictObject({
  runId: z.string(),
  label: z.string(),
  ...runSummaryShape,
  protocol: z
    .strictObject({ name: z.string(), commit: z.string() })
    .nullable()
    .meta({ description: "The version of the authors' scripts behind every number of this run." }),
  umls: z.string().nullable().meta({ description: 'How UMLS F1 was computed.' }),
  scores: byDatasetAndMetric.meta({
    description: 'dataset → metric → mean ×100 over its items (LongHealth: accuracy per sub-task).',
  }),
  items: z.record(z.string(), countSchema).meta({ description: 'Items scored per dataset.' }),
  intervals: z.record(z.string(), z.record(z.string(), reportIntervalSchema)).optional().meta({
    description: "dataset → metric → the score's 95% interval (×100; LongHealth clustered by patient).",
  }),
  notComputed: z.record(z.string(), z.string()).meta({ description: 'Metric → why it was not computed.' }),
  judge: clueJudgeReportSchema.optional(),
  judgeProbes: judgeProbesSchema.optional(),
  level1: z.number().nullable(),
  level2: z.number().nullable(),
  levelIntervals: z
    .strictObject({ level1: reportIntervalSchema.nullable(), level2: reportIntervalSchema.nullable() })
    .optional()
    .meta({
      description:
        "The level scores' 95% intervals (×100): each dataset's items resampled on their own (LongHealth by patient); null for a level not completed.",
    }),
});

const clueDifferenceSchema = z.strictObject({
  label: z.string(),
  differences: byDatasetAndMetric.meta({
    description: "dataset → metric → this run's score minus the base run's (points).",
  }),
  level1: z.number().nullable(),
  level2: z.number().nullable(),
});

/** The CLUE report document (`medbench report --json` prints it with the sections every suite has). */
export const clueReportSchema = schemaOf<ClueReport>()(
  z.strictObject({
    suite: z.literal('clue'),
    generatedAt: generatedAtSchema,
    runs: z.array(clueRunReportSchema),
    base: z
      .strictObject({ label: z.string(), differences: z.array(clueDifferenceSchema) })
      .optional()
      .meta({ description: 'Figure 5: every other run against the base run (`--base`).' }),
  }),
);
