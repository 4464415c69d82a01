import { MedbenchError } from '../core/errors.js';
import type { RunHooks } from './run-model.js';
import { type RunOutcome, runSuite, type SuiteRunRequest } from './run-suite.js';
import type { SuitePlugin } from './suite-plugin.js';
import { SUITE_PLUGINS } from './suites.js';

/**
 * A run of a suite that builds its items from `request.data` (`run <suite> --data` in the CLI):
 * the suite's plan through `runSuite`, as the CLI does it. A built dataset runs with `evaluateDataset`.
 */
export async function evaluateSuite(
  name: string,
  request: SuiteRunRequest,
  hooks: RunHooks = {},
  plugins: readonly SuitePlugin[] = SUITE_PLUGINS,
): Promise<RunOutcome> {
  const definition = plugins.find((plugin) => plugin.suite.name === name)?.run;
  if (!definition)
    throw new MedbenchError({
      code: 'USAGE',
      message: `"${name}" has no run of its own; ${plugins
        .filter((plugin) => plugin.run)
        .map((plugin) => plugin.suite.name)
        .join(', ')} have one.`,
      hint: 'Run a built dataset file with evaluateDataset (`medbench run --dataset <file>`).',
    });
  return runSuite(await definition.plan(request, hooks), request, hooks);
}
