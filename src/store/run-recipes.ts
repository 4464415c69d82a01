import { parseColumn } from './store-damage.js';
import { StoreTable } from './store-table.js';

/**
 * What each run was made from, for its manifest (`medbench export manifest`, `medbench rerun`):
 * the recipe recorded when the run starts (a JSON document the compose layer writes and reads),
 * and the model ids or versions the provider said answered it.
 */
export class RunRecipes extends StoreTable {
  /** Records a run's recipe; the first one stays (a resumed run is the same run). */
  put(runId: string, recipe: unknown): void {
    this.beforeWrite();
    this.database()
      .prepare('INSERT OR IGNORE INTO run_recipes (run_id, recipe_json, created_at) VALUES (?, ?, ?)')
      .run(runId, JSON.stringify(recipe), new Date().toISOString());
  }

  /** The run's recipe; undefined for a run made before recipes were recorded, or imported. */
  get(runId: string): unknown {
    const row = this.database().prepare('SELECT recipe_json FROM run_recipes WHERE run_id = ?').get(runId) as
      | { recipe_json: string }
      | undefined;
    return row ? parseColumn(row.recipe_json, () => `run_recipes.recipe_json of run ${runId}`) : undefined;
  }

  /** A model id or version the provider said answered one of the run's requests. */
  addModelVersion(runId: string, version: string): void {
    this.beforeWrite();
    this.database()
      .prepare('INSERT OR IGNORE INTO run_model_versions (run_id, model_version) VALUES (?, ?)')
      .run(runId, version);
  }

  /** The tasks of a run's stored results, sorted. */
  tasks(runId: string): string[] {
    return this.database()
      .prepare('SELECT DISTINCT task FROM results WHERE run_id = ? ORDER BY task')
      .pluck()
      .all(runId) as string[];
  }

  /** Every model id or version the provider named in the run's answers, sorted. */
  modelVersions(runId: string): string[] {
    return this.database()
      .prepare('SELECT model_version FROM run_model_versions WHERE run_id = ? ORDER BY model_version')
      .pluck()
      .all(runId) as string[];
  }
}
