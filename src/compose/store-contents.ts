import { closestName } from '../core/closest-name.js';
import type { Suite } from '../core/suite.js';
import type { Store } from '../store/store.js';

/** The labels of a suite's stored runs, in the order they were made, each once. */
export function storedLabels(store: Store, suite: Suite): string[] {
  return [...new Set(store.listRuns({ suite: suite.name }).map((run) => run.label))];
}

/** What the store holds, suite by suite (`MedOdyssey (--suite medodyssey): extractive, gpt-4o`); empty suites left out. */
export function storeContents(store: Store, suites: readonly Suite[]): string[] {
  return suites.flatMap((suite) => {
    const labels = storedLabels(store, suite);
    return labels.length > 0 ? [`${suite.title} (--suite ${suite.name}): ${labels.join(', ')}`] : [];
  });
}

/** ` Did you mean "x"?` when `given` looks like a mistyped one of `names`, else ''. */
export function didYouMean(given: string, names: readonly string[]): string {
  const closest = closestName(given, names);
  return closest ? ` Did you mean "${closest}"?` : '';
}
