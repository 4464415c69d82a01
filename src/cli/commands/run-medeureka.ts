import { type EvaluateRetrieverRequest, evaluateRetriever } from '../../compose/evaluate-retriever.js';
import type { CommandOutput } from '../../core/command-output.js';
import { terminalSession } from '../run-session.js';

export type RunMedEurekaOptions = EvaluateRetrieverRequest;

/**
 * `medbench run medeureka`: ranks every task's corpus with the retriever and stores each query's
 * top-500 ranking and scores; a re-run ranks only what is missing.
 */
export async function runMedEurekaCommand(
  options: RunMedEurekaOptions,
  output: CommandOutput,
): Promise<void> {
  const session = terminalSession(output);
  try {
    await evaluateRetriever(options, session.hooks);
  } finally {
    session.dispose();
  }
}
