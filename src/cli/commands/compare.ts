import { type CompareDocument, compareDocument } from '../../compose/compare-document.js';
import { resolveHome, storePathIn } from '../../compose/home.js';
import { namedRun, runName } from '../../compose/named-run.js';
import type { CommandOutput } from '../../core/command-output.js';
import { epochSettingsOf } from '../../core/epochs.js';
import { MedbenchError } from '../../core/errors.js';
import type { RunRecord } from '../../core/run-record.js';
import type { Suite } from '../../core/suite.js';
import { reduceEpochRows } from '../../metrics/epoch-results.js';
import { Store } from '../../store/store.js';
import { type CompareRunSide, compareRuns } from '../../view/shared/compare-runs.js';
import { renderCompareText } from './compare-text.js';

export interface CompareCommandOptions {
  home?: string;
  /** The metric variant the tasks are read under (default: the suite's first). */
  metric?: string;
  json?: boolean;
  /** B (`--bootstrap-resamples`, as `report` takes it). */
  bootstrapResamples?: number;
  seed?: number;
  /** The suites the program knows. */
  suites: readonly Suite[];
}

/** The suite both runs belong to, or a usage error saying why they cannot be compared. */
function suiteOf(a: RunRecord, b: RunRecord, suites: readonly Suite[]): Suite {
  if (a.id === b.id)
    throw new MedbenchError({
      code: 'USAGE',
      message: `RUN_A and RUN_B are the same run (${runName(a)}).`,
      hint: 'Name two different runs of one suite.',
    });
  const suite = suites.find((entry) => entry.name === a.suite)!;
  if (a.suite !== b.suite)
    throw new MedbenchError({
      code: 'USAGE',
      message: `${runName(a)} is a ${a.suite} run and ${runName(b)} a ${b.suite} run: compare takes two runs of one suite.`,
    });
  if (!suite.scoring)
    throw new MedbenchError({
      code: 'USAGE',
      message: `The ${suite.title} suite declares no scored tasks (\`Suite.scoring\`): its runs cannot be compared.`,
    });
  return suite;
}

function variantOf(suite: Suite, metric: string | undefined): string {
  const variants = suite.scoring!.variants;
  if (metric === undefined) return variants[0]!;
  if (variants.includes(metric)) return metric;
  throw new MedbenchError({
    code: 'USAGE',
    message: `--metric ${metric}: ${suite.title} runs are compared under ${variants.join(' or ')}.`,
  });
}

/** A run's side: its stored scores (a sample's epochs reduced to one, as the report does), and which its suite counts. */
function sideOf(store: Store, suite: Suite, run: RunRecord): CompareRunSide {
  return {
    runId: run.id,
    label: run.label,
    rows: reduceEpochRows(store.aggregateRows(run.id), epochSettingsOf(run)),
    counted: (row) => suite.counts?.(row, run) ?? true,
  };
}

/** Two stored runs compared task by task (see `compareRuns`), as the `--json` document. */
export function compareStoredRuns(
  store: Store,
  names: { a: string; b: string },
  options: Omit<CompareCommandOptions, 'home' | 'json'>,
): CompareDocument {
  const runA = namedRun(store, options.suites, names.a);
  const runB = namedRun(store, options.suites, names.b);
  const suite = suiteOf(runA, runB, options.suites);
  const variant = variantOf(suite, options.metric);
  const comparison = compareRuns(
    suite.scoring!,
    variant,
    { a: sideOf(store, suite, runA), b: sideOf(store, suite, runB) },
    {
      ...(options.bootstrapResamples === undefined ? {} : { resamples: options.bootstrapResamples }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    },
  );
  if (comparison.tasks.length === 0)
    throw new MedbenchError({
      code: 'USAGE',
      message: `${runName(runA)} and ${runName(runB)} share no sample both count: there is nothing to pair.`,
      hint: `Compare runs of the same dataset (A: ${runA.datasetId.slice(0, 12)}, B: ${runB.datasetId.slice(0, 12)}).`,
    });
  return compareDocument({ ...comparison, suite: suite.name });
}

/** `medbench compare RUN_A RUN_B`: per task and overall, B − A with its interval, the paired test, Holm's p. */
export function compareCommand(
  names: { a: string; b: string },
  options: CompareCommandOptions,
  output: CommandOutput,
): void {
  const store = new Store(storePathIn(resolveHome(options.home)), { readonly: true });
  try {
    const document = compareStoredRuns(store, names, options);
    output.stdout(options.json ? `${JSON.stringify(document, null, 2)}\n` : renderCompareText(document));
  } finally {
    store.close();
  }
}
