import { type EvaluateDatasetRequest, evaluateDataset } from '../../compose/evaluate-dataset.js';
import type { CommandOutput } from '../../core/command-output.js';
import type { RunSummary } from '../../runner/run-samples.js';
import { terminalSession } from '../run-session.js';

export type RunCommandOptions = EvaluateDatasetRequest;

/** `medbench run --dataset`: runs a dataset against a model, storing every response and score. */
export async function runCommand(options: RunCommandOptions, output: CommandOutput): Promise<RunSummary> {
  const session = terminalSession(output);
  try {
    return await evaluateDataset(options, session.hooks);
  } finally {
    session.dispose();
  }
}
