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

/** The MedEureka report document (`medbench report --json` prints it with the sections every suite has). */
export const medeurekaReportSchema = schemaOf<MedEurekaReport>()(
  z.strictObject({
    suite: z.literal('medeureka'),
    generatedAt: generatedAtSchema,
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
