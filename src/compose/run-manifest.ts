import type { RunRecord } from '../core/run-record.js';
import type { Store } from '../store/store.js';
import { type RunManifest, type RunRecipe, runRecipeSchema } from './run-manifest-schema.js';

/** A stored recipe, checked; undefined when the run has none (imported, or made before recipes). */
function storedRecipe(store: Store, runId: string): RunRecipe | undefined {
  const stored = store.recipes.get(runId);
  if (stored === undefined) return undefined;
  const parsed = runRecipeSchema.safeParse(stored);
  if (!parsed.success)
    throw new Error(
      `The recipe of run ${runId} in ${store.path} does not fit its schema at ${parsed.error.issues[0]!.path.join('.')} (a medbench bug; please report it).`,
    );
  return parsed.data;
}

/**
 * A stored run's manifest: the run, the model versions its answers named, and what it was made
 * from. `promptsOfSamples`: with each sample's prompt hash (the exported file; `report --json`
 * leaves them out).
 */
export function runManifest(
  store: Store,
  run: RunRecord,
  options: { promptsOfSamples?: boolean } = {},
): RunManifest {
  const recipe = storedRecipe(store, run.id);
  if (recipe && !options.promptsOfSamples) delete recipe.prompts.samples;
  const tasks = store.recipes.tasks(run.id);
  return {
    medbenchManifest: 1,
    run: {
      id: run.id,
      suite: run.suite,
      label: run.label,
      createdAt: run.createdAt,
      source: run.source,
      tasks,
      protocol: run.parameters.protocol ?? null,
      dataset: { id: run.datasetId, path: run.datasetPath },
    },
    returnedModels: store.recipes.modelVersions(run.id),
    recipe: recipe ?? null,
  };
}
