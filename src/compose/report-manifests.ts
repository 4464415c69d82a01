import { z } from 'zod';
import type { RunWithResults } from '../core/run-record.js';
import type { Store } from '../store/store.js';
import { runManifest } from './run-manifest.js';
import { type RunManifest, runManifestSchema } from './run-manifest-schema.js';

/**
 * A suite report's shape with `manifest` on each of its runs (`runs[].manifest`), whichever suite:
 * its runs are a zod array of objects with a `runId`.
 */
export function withManifestShape(shape: z.ZodRawShape): z.ZodRawShape {
  const runs = shape.runs;
  if (!(runs instanceof z.ZodArray) || !(runs.element instanceof z.ZodObject)) return shape;
  const manifest = runManifestSchema.optional().meta({
    description: "The run's manifest (`medbench export manifest` writes it with each prompt's hash).",
  });
  return { ...shape, runs: z.array(runs.element.extend({ manifest })) };
}

/** The suite's report with each run's manifest added to its entry in `runs`. */
export function withRunManifests(report: unknown, manifestOf: (runId: string) => RunManifest): unknown {
  const runs = (report as { runs?: unknown }).runs;
  if (!Array.isArray(runs)) return report;
  return {
    ...(report as object),
    runs: runs.map((run: { runId: string }) => ({ ...run, manifest: manifestOf(run.runId) })),
  };
}

/** Each reported run's manifest by its id (without each prompt's hash: those are the exported file's). */
export function manifestsOf(store: Store, runs: readonly RunWithResults[]): (runId: string) => RunManifest {
  const byId = new Map(runs.map(({ run }) => [run.id, run]));
  return (runId) => runManifest(store, byId.get(runId)!);
}

/** JSON Schema (draft 2020-12) of a run's manifest (`medbench export manifest`). */
export function manifestJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = z.toJSONSchema(runManifestSchema, { io: 'output' });
  return { $schema, ...schema };
}
