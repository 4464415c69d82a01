import type { RunHooks } from '../../../compose/run-model.js';
import { runSuite } from '../../../compose/run-suite.js';
import type { RunRecord } from '../../../core/run-record.js';
import type { EvaluateRetrieverRequest } from './retrieval-run.js';
import { retrieverPlan } from './retriever-plan.js';

export type { EvaluateRetrieverRequest } from './retrieval-run.js';

/**
 * A MedEureka run from the library (and the demo): the run's plan (`retrieverPlan`) through
 * `runSuite`, into the store under `home`; every query's top-500 ranking and scores are stored,
 * and a re-run ranks only what is missing. What the caller sees comes through `hooks`.
 */
export async function evaluateRetriever(
  request: EvaluateRetrieverRequest,
  hooks: RunHooks = {},
): Promise<RunRecord> {
  return (await runSuite(await retrieverPlan(request, hooks), request, hooks)).run;
}
