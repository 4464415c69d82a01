import { z } from 'zod';
import type { Suite } from '../core/suite.js';
import type { LimitedRun } from '../report/limited-runs.js';
import { limitedRunSchema, runSettingsSchema, taskUsageSchema } from '../report/report-schema.js';
import type { RunSettings } from '../report/run-settings.js';
import type { TaskUsage } from '../report/usage-table.js';
import { compareJsonSchema } from './compare-document.js';
import { configSchema } from './config.js';
import { manifestJsonSchema, withManifestShape } from './report-manifests.js';
import type { SuitePlugin } from './suite-plugin.js';

/**
 * The layout version of the `report --json` document: raised whenever a field is added, removed
 * or changes meaning, so a reader knows which `schemas/report.schema.json` describes it.
 * 2: every score's 95% interval (`interval`, `intervals`, `overviewIntervals`), optional fields.
 */
export const REPORT_SCHEMA_VERSION = 5;

/** The sections every suite's document carries besides its own report. */
export interface ReportSections {
  /** Tokens and cost per run and task. */
  usage: readonly TaskUsage[];
  /** Runs made with `--limit`. */
  limited: readonly LimitedRun[];
  /** The generation settings of each run that has any. */
  settings: readonly RunSettings[];
}

/** The schema of a suite's `report --json` document: its version, the suite's report, the sections every suite has. */
export function reportDocumentSchema(suite: Suite) {
  const schema = suite.reportSchema;
  if (!(schema instanceof z.ZodObject))
    throw new TypeError(`The ${suite.title} suite's reportSchema must be a zod object (z.strictObject).`);
  return z.strictObject({
    schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
    ...withManifestShape(schema.shape),
    usage: z.array(taskUsageSchema),
    limited: z.array(limitedRunSchema),
    settings: z.array(runSettingsSchema),
  });
}

/**
 * The `report --json` document of a suite's report: built by its schema, so what is printed is
 * what the schema (and `schemas/report.schema.json`) describes, nothing more; a field the schema
 * lacks is a medbench bug, said as such.
 */
export function reportDocument(suite: Suite, report: unknown, sections: ReportSections): unknown {
  const parsed = reportDocumentSchema(suite).safeParse({
    schemaVersion: REPORT_SCHEMA_VERSION,
    ...(report as object),
    ...sections,
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(
    `The ${suite.title} report does not fit its schema at ${issue.path.join('.') || '(root)'}: ${issue.message} (a medbench bug; please report it).`,
  );
}

/** JSON Schema (draft 2020-12) of every suite's `report --json` document, one per suite, told apart by `suite`. */
export function reportJsonSchema(suites: readonly Suite[]): Record<string, unknown> {
  const documents = suites.map(reportDocumentSchema);
  const union = z.discriminatedUnion('suite', documents as [(typeof documents)[0], ...typeof documents]);
  const { $schema, ...schema } = z.toJSONSchema(union, { io: 'output' });
  return { $schema, title: 'medbench report --json', ...schema };
}

/** JSON Schema (draft 2020-12) of `medbench.config.json` with medbench's own providers: what a config may hold. */
export function configJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = z.toJSONSchema(configSchema, { io: 'input' });
  return { $schema, title: 'medbench.config.json', ...schema };
}

/**
 * The JSON Schema files the package ships (`schemas/`), by file name, as written: 2-space JSON and
 * a newline; `plugins` add the schemas of their commands' JSON output (`SuitePlugin.jsonSchemas`).
 */
export function jsonSchemaFiles(
  suites: readonly Suite[],
  plugins: readonly Pick<SuitePlugin, 'jsonSchemas'>[] = [],
): Record<string, string> {
  const text = (schema: Record<string, unknown>) => `${JSON.stringify(schema, null, 2)}\n`;
  return {
    'compare.schema.json': text(compareJsonSchema()),
    'config.schema.json': text(configJsonSchema()),
    'manifest.schema.json': text(manifestJsonSchema()),
    'report.schema.json': text(reportJsonSchema(suites)),
    ...Object.fromEntries(
      plugins.flatMap((plugin) =>
        Object.entries(plugin.jsonSchemas ?? {}).map(([name, schema]) => [name, text(schema())]),
      ),
    ),
  };
}
