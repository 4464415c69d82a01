import { z } from 'zod';
import {
  generatedAtSchema,
  reportIntervalSchema,
  runSummaryShape,
  schemaOf,
} from '../../report/report-schema.js';
import type { MedEurekaReport } from './medeureka-report.js';

/** `mrr@n` and `hr@n` → percent (a dataset's also `queries`). */
const scoresSchema = z.record(z.string(), z.number());
const byGroup = z.record(z.string(), scoresSchema);
const intervalsByKey = z.record(z.string(), reportIntervalSchema);
const intervalsByGroup = z.record(z.string(), intervalsByKey);
const mtebRowSchema = z.strictObject({
  runId: z.string(),
  label: z.string(),
  source: z.enum(['medbench', 'imported']),
  task: z.string().meta({ description: 'The MTEB task name (MedEurekaTableI for MedEureka’s Table I).' }),
  dataset: z
    .string()
    .nullable()
    .meta({ description: 'The MedEureka dataset the task is; null for another MTEB task.' }),
  split: z.string(),
  subset: z.string(),
  languages: z.array(z.string()),
  scores: scoresSchema.meta({
    description: '"ndcg@n" | "map@n" | "recall@n" | "mrr@n" (imported: also "precision@n") → percent.',
  }),
});

/** The MedEureka report document (`medbench report --json` prints it with the sections every suite has). */
export const medeurekaReportSchema = schemaOf<MedEurekaReport>()(
  z.strictObject({
    suite: z.literal('medeureka'),
    generatedAt: generatedAtSchema,
    mteb: z.array(mtebRowSchema).optional().meta({
      description:
        "Absent when there are none. MTEB's metrics (percent) of each medbench run per dataset, and of each MTEB result file imported (`medbench import mteb`) per task, split and subset.",
    }),
    runs: z.array(
      z.strictObject({
        runId: z.string(),
        label: z.string(),
        ...runSummaryShape,
        model: z.record(z.string(), z.unknown()).meta({
          description:
            'The retriever: kind, provider, model id, revision, instruction template … (no secrets).',
        }),
        datasets: byGroup.meta({ description: 'dataset → { "mrr@n" | "hr@n" → percent, queries }.' }),
        average: scoresSchema.meta({ description: 'Plain means over the datasets run.' }),
        byDataType: byGroup,
        byLanguage: byGroup,
        byGranularity: byGroup.meta({ description: 'Per query → target granularity (Figure 3).' }),
        intervals: z
          .strictObject({
            datasets: intervalsByGroup,
            average: intervalsByKey,
            byDataType: intervalsByGroup,
            byLanguage: intervalsByGroup,
            byGranularity: intervalsByGroup,
          })
          .optional()
          .meta({
            description:
              "Every score's 95% interval (percent): a query is a unit; group means resample each dataset apart.",
          }),
      }),
    ),
  }),
);
