import { datasetPlan, type EvaluateDatasetRequest } from '../../compose/dataset-plan.js';
import { epochPlan } from '../../compose/epoch-plan.js';
import {
  type ExportRequestsOptions,
  type ExportSummary,
  exportRequests,
} from '../../compose/export-requests.js';
import { type ImportSummary, importResponses } from '../../compose/import-responses.js';
import type { RunPlan, SuiteRunRequest } from '../../compose/run-suite.js';
import type { SuitePlugin } from '../../compose/suite-plugin.js';
import { SUITES } from '../../compose/suites.js';
import type { CommandOutput } from '../../core/command-output.js';
import { EXIT } from '../run-session.js';

export type ExportRequestsCommandOptions = SuiteRunRequest &
  Partial<EvaluateDatasetRequest> &
  Omit<ExportRequestsOptions, 'home'> & { format: string };

/**
 * `medbench export requests`: the run the same options name (`run --dataset`, or `run <suite>
 * --data`) planned as `run` plans it, and its pending requests written as OpenAI batch JSONL.
 */
export async function exportRequestsCommand(
  suite: string | undefined,
  options: ExportRequestsCommandOptions,
  context: { output: CommandOutput; plugins: readonly SuitePlugin[] },
): Promise<ExportSummary> {
  const { output } = context;
  const hooks = { onNotice: (text: string) => output.stderr(`${text}\n`) };
  const definition = context.plugins.find((plugin) => plugin.suite.name === suite)?.run;
  // Nothing is sent, as in a dry run: a key that is not set is no error (the run that sends asks for it).
  const unsent = { ...options, dryRun: true };
  const planned: RunPlan = definition
    ? await definition.plan(unsent, hooks)
    : await datasetPlan({ ...unsent, dataset: options.dataset! }, SUITES);
  let plan: RunPlan;
  try {
    // Every epoch's request (`--epochs`), as the run sends them.
    plan = epochPlan(planned, options);
  } catch (error) {
    await planned.close?.();
    throw error;
  }
  for (const notice of plan.notices ?? []) hooks.onNotice(notice);
  const summary = await exportRequests(plan, {
    out: options.out,
    ...(options.home ? { home: options.home } : {}),
    ...(options.shard ? { shard: options.shard } : {}),
  });
  const left = [
    `${summary.alreadyDone} done already`,
    `${summary.cached} answered by the response cache`,
    `${summary.tooLong} too long for the window (the run records them too_long)`,
    `${summary.shared} sharing another sample's request`,
  ];
  output.stdout(
    `Wrote ${summary.written} requests of run ${plan.run.id} (${plan.run.label}) to ${options.out} as ${options.format}: ${summary.samples} samples, of which ${left.join(', ')}.\n`,
  );
  if (summary.written > 0)
    output.stderr(
      'Have an engine answer the file (docs/engine-hand-off.md), then `medbench import responses <its output file>` and the run with the same options: it takes every answer from the cache.\n',
    );
  return summary;
}

/** `medbench import responses <file>`: an engine's answers into the response cache; exit 3 when some lines failed. */
export function importResponsesCommand(
  file: string,
  options: { home?: string },
  output: CommandOutput,
): ImportSummary {
  const summary = importResponses({ file, ...(options.home ? { home: options.home } : {}) });
  output.stdout(
    `Imported ${summary.imported} answers from ${file} into the response cache (${summary.alreadyCached} were there already; ${summary.failed.length} of ${summary.lines} lines failed).\n`,
  );
  if (summary.failed.length > 0) {
    for (const failure of summary.failed.slice(0, 5))
      output.stderr(`  line ${failure.line} (${failure.customId.slice(0, 16)}…): ${failure.reason}\n`);
    if (summary.failed.length > 5) output.stderr(`  … and ${summary.failed.length - 5} more\n`);
    output.stderr(
      'The failed requests are not cached: the run sends them itself, or export the requests again (only those still unanswered are written) for the engine to retry.\n',
    );
    process.exitCode = EXIT.incomplete;
  }
  return summary;
}
