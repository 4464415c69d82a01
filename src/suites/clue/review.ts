import { createHash } from 'node:crypto';
import type { StoredResult } from '../../core/run-record.js';
import type { ReviewItem, ReviewRubric, SuiteReview } from '../../core/suite.js';
import { referenceGold } from './gold.js';
import { rubricsFor } from './judge-rubrics.js';
import { JUDGED_TASKS } from './judge-task.js';

/** The rubrics people grade CLUE's free-text tasks by: the judge's (shipped, or the given files). */
function reviewRubrics(files: readonly string[] = []): Record<string, ReviewRubric> {
  const rubrics = rubricsFor(files);
  return Object.fromEntries(
    JUDGED_TASKS.map((task) => {
      const { rubric, file } = rubrics[task];
      return [
        task,
        {
          task,
          version: rubric.version,
          // The digest a judge run records of its rubric (judge-clue.ts rubricRecords).
          sha256: createHash('sha256').update(JSON.stringify(rubric)).digest('hex'),
          definition: rubric.definition,
          criteria: rubric.criteria.map(({ id, text, points }) => ({ id, text, points })),
          file,
        },
      ];
    }),
  );
}

/** An answered item of a judged task whose prompt and output are stored (an imported score-only row has no output). */
function reviewable(result: StoredResult): boolean {
  return (
    result.status === 'ok' &&
    result.promptHash !== null &&
    result.rawOutput !== null &&
    (JUDGED_TASKS as readonly string[]).includes(result.task)
  );
}

/**
 * What a reviewer (or a judge) reads of an answered item: the item's own prompt (the last user
 * message the model got: the consumer's question, the discharge letter and question — without the
 * system message and few-shot turns), the reference, the answer. Null when there is nothing to
 * grade: never answered, or no prompt stored (CLUE baseline runs of an earlier medbench stored
 * none; a judge or a person cannot tell whether a summary keeps to a question they cannot read).
 */
function reviewItemOf(result: StoredResult, prompt: string | null): ReviewItem | null {
  if (!reviewable(result) || !prompt) return null;
  return {
    input: prompt,
    reference: referenceGold.parse(result.gold).reference,
    answer: typeof result.parsed === 'string' ? result.parsed : (result.rawOutput ?? ''),
  };
}

/** CLUE's human review: the judge's rubrics, and what the judge reads of each answer (docs/review.md). */
export const clueReview: SuiteReview = { rubrics: reviewRubrics, reviewable, itemOf: reviewItemOf };
