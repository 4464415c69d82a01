import { didYouMean, storeContents, storedLabels } from '../../compose/store-contents.js';
import type { RunFilter } from '../../compose/stored-report.js';
import { MedbenchError } from '../../core/errors.js';
import type { RunWithResults } from '../../core/run-record.js';
import type { Suite } from '../../core/suite.js';
import type { Store } from '../../store/store.js';

/** `--base <label>` names a run the report holds, or a usage error naming the labels it holds. */
export function checkBase(base: string | undefined, runs: readonly RunWithResults[], suite: Suite): void {
  if (base === undefined || runs.length === 0) return;
  const labels = [...new Set(runs.map(({ run }) => run.label))];
  if (labels.includes(base)) return;
  throw new MedbenchError({
    code: 'USAGE',
    message: `--base ${base}: no ${suite.title} run in this report is labelled "${base}".${didYouMean(base, labels)}`,
    hint: `Labels: ${labels.join(', ')}.`,
  });
}

/**
 * The error when nothing matched: what the store holds, suite by suite, and the label a mistyped
 * --model stands for; the suite's first-run command only when the store holds nothing.
 */
export function nothingMatched(
  store: Store,
  suite: Suite,
  suites: readonly Suite[],
  filter: RunFilter,
): MedbenchError {
  const message = `No matching ${suite.title} runs in ${store.path}.`;
  const contents = storeContents(store, suites);
  if (contents.length === 0)
    return new MedbenchError({ code: 'DATA_NOT_FOUND', message, hint: suite.firstRun });
  const labels = storedLabels(store, suite);
  const suggestions = (filter.labels ?? [])
    .filter((label) => !labels.includes(label))
    .map((label) => didYouMean(label, labels).trim())
    .filter(Boolean);
  return new MedbenchError({
    code: 'DATA_NOT_FOUND',
    message: [message, ...suggestions].join(' '),
    hint: `The store holds:\n${contents.map((line) => `    ${line}`).join('\n')}\n  Choose with --suite, --model <label> or --run <id prefix>.`,
  });
}
