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

/** What a reviewer reads of an answered item: the prompt as the model got it, the reference, the answer. */
function reviewItemOf(result: StoredResult, prompt: string | null): ReviewItem | null {
  if (result.status !== 'ok' || !(JUDGED_TASKS as readonly string[]).includes(result.task)) return null;
  return {
    input: prompt ?? '',
    reference: referenceGold.parse(result.gold).reference,
    answer: typeof result.parsed === 'string' ? result.parsed : (result.rawOutput ?? ''),
  };
}

/** CLUE's human review: the judge's rubrics, and what the judge reads of each answer (docs/review.md). */
export const clueReview: SuiteReview = { rubrics: reviewRubrics, itemOf: reviewItemOf };
