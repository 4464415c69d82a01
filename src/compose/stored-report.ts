import { describeEpochs, epochSettingsOf } from '../core/epochs.js';
import type { RunWithResults } from '../core/run-record.js';
import type { Suite, SuiteReportOptions } from '../core/suite.js';
import { limitedRuns, renderLimitedText } from '../report/limited-runs.js';
import type { Store } from '../store/store.js';

/** Which stored runs a report covers: all, or those chosen by id prefix or label. */
export interface RunFilter {
  runIds?: readonly string[];
  labels?: readonly string[];
}

/** The stored runs of a suite the filter chooses, with their results. */
export function storedRuns(store: Store, suite: Suite, filter: RunFilter = {}): RunWithResults[] {
  return store
    .listRuns({ suite: suite.name })
    .filter((run) => !filter.runIds || filter.runIds.some((id) => run.id.startsWith(id)))
    .filter((run) => !filter.labels || filter.labels.includes(run.label))
    .map((run) => ({ run, results: store.results(run.id) }));
}

/** A suite's report of the stored runs the filter chooses. */
export function storedReport<Report>(
  store: Store,
  suite: Suite<Report>,
  filter: RunFilter = {},
  options: SuiteReportOptions = {},
): Report {
  return suite.report(storedRuns(store, suite as Suite, filter), options);
}

/**
 * The text report a run command ends with: the suite's report of the run, what --limit left out,
 * and a run of `--epochs K`'s epochs and reducers (its scores are each sample's reduced epochs).
 */
export function storedRunText<Report>(store: Store, suite: Suite<Report>, runId: string): string {
  const runs = storedRuns(store, suite as Suite, { runIds: [runId] });
  const limited = renderLimitedText(limitedRuns(runs));
  const epochs = runs[0] ? epochSettingsOf(runs[0].run) : undefined;
  const epochLine = epochs
    ? `\n\nScores of ${runs[0]!.run.label}: ${describeEpochs(epochs)} (each sample's epoch scores reduced to one).`
    : '';
  return `${suite.renderText(suite.report(runs, {}), {})}${limited ? `\n\n${limited}` : ''}${epochLine}`;
}
