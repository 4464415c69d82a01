import { type RunOutcome, runSuite, type SuiteRunRequest } from '../../compose/run-suite.js';
import type { SuiteRunDefinition } from '../../compose/suite-plugin.js';
import type { CommandOutput } from '../../core/command-output.js';
import { terminalSession } from '../run-session.js';

/** `medbench run <suite> --data <folder>`: the suite's plan, through the one run path, on the terminal. */
export async function runSuiteCommand(
  definition: SuiteRunDefinition,
  request: SuiteRunRequest,
  output: CommandOutput,
): Promise<RunOutcome> {
  const session = terminalSession(output);
  try {
    return await runSuite(await definition.plan(request, session.hooks), request, session.hooks);
  } finally {
    session.dispose();
  }
}
