import type { RunSummary } from '../runner/run-samples.js';
import { datasetPlan, type EvaluateDatasetRequest } from './dataset-plan.js';
import type { RunHooks } from './run-model.js';
import { runSuite } from './run-suite.js';
import { SUITES } from './suites.js';

export type { EvaluateDatasetRequest } from './dataset-plan.js';

/**
 * A run of a built dataset on a model: the dataset's plan (`datasetPlan`, its suite found in
 * `SUITES`) through `runSuite`, into the store under `home`. What the caller sees comes through `hooks`.
 */
export async function evaluateDataset(
  request: EvaluateDatasetRequest,
  hooks: RunHooks = {},
): Promise<RunSummary> {
  const outcome = await runSuite(await datasetPlan(request, SUITES), request, hooks);
  if (outcome.kind === 'computed') throw new Error('a dataset run is a model run');
  return outcome.summary;
}
