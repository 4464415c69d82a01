import { evaluateSuite } from '../../compose/evaluate-suite.js';
import type { RunOutcome, SuiteRunRequest } from '../../compose/run-suite.js';
import type { SuitePlugin } from '../../compose/suite-plugin.js';
import type { CommandOutput } from '../../core/command-output.js';
import { terminalSession } from '../run-session.js';

/** `medbench run <suite> --data <folder>`: `evaluateSuite`, as the library runs it, on the terminal. */
export async function runSuiteCommand(
  suite: string,
  request: SuiteRunRequest,
  options: { output: CommandOutput; plugins: readonly SuitePlugin[] },
): Promise<RunOutcome> {
  const session = terminalSession(options.output);
  try {
    return await evaluateSuite(suite, request, session.hooks, options.plugins);
  } finally {
    session.dispose();
  }
}
