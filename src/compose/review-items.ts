import type { RunRecord, StoredResult } from '../core/run-record.js';
import type { ReviewRubric, Suite, SuiteReview } from '../core/suite.js';
import type { Store } from '../store/store.js';
import { recordedRestriction } from './run-recipe.js';

/** One answer people can grade: a stored, answered result of a reviewed task, with its suite's review hook. */
export interface ReviewTarget {
  suite: Suite;
  review: SuiteReview;
  run: RunRecord;
  result: StoredResult;
}

/** The suites people review (`Suite.review`), each with its rubrics (`files` replace shipped ones). */
export function reviewedSuites(
  suites: readonly Suite[],
  files: readonly string[] = [],
): Array<{ suite: Suite; review: SuiteReview; rubrics: Readonly<Record<string, ReviewRubric>> }> {
  return suites.flatMap((suite) =>
    suite.review ? [{ suite, review: suite.review, rubrics: suite.review.rubrics(files) }] : [],
  );
}

/** Every rubric of the reviewed suites, by task. */
export function reviewRubrics(
  suites: readonly Suite[],
  files: readonly string[] = [],
): Map<string, ReviewRubric> {
  return new Map(reviewedSuites(suites, files).flatMap(({ rubrics }) => Object.entries(rubrics)));
}

/**
 * Every answer of the stored runs people can grade: the results of each reviewed suite's rubric
 * tasks that its `itemOf` takes (answered ones), in the store's order, optionally of one task.
 */
export function reviewTargets(store: Store, suites: readonly Suite[], filter: { task?: string } = {}) {
  const targets: ReviewTarget[] = [];
  for (const { suite, review, rubrics } of reviewedSuites(suites))
    for (const run of store.listRuns({ suite: suite.name }))
      for (const task of Object.keys(rubrics)) {
        if (filter.task !== undefined && filter.task !== task) continue;
        for (const result of store.results(run.id, { task }))
          if (review.reviewable(result)) targets.push({ suite, review, run, result });
      }
  return targets;
}

/**
 * Whether an answer's text is restricted: its task is one a data-use agreement covers
 * (`Suite.restrictedTasks`), or its run was made with `--restricted` (recorded in its manifest).
 */
export function restrictedTarget(store: Store, target: ReviewTarget): boolean {
  return (
    target.suite.restrictedTasks?.[target.result.task] !== undefined ||
    recordedRestriction(store, target.run.id)?.marked === true
  );
}
