/**
 * What the review pages receive (docs/review.md). Blinded: an item is named by its token only —
 * no run id, model label, metric or judge verdict ever reaches a reviewer's page.
 */

/** A task's queue in numbers: items, items graded by anyone, by this reviewer, the double-rated share and how many of it two reviewers graded. */
export interface ReviewCounts {
  items: number;
  graded: number;
  mine: number;
  doubleShare: number;
  doubleDone: number;
}

/** The review page's start: who grades (null: the viewer was started without --reviewer) and each reviewable task. */
export interface ReviewOverview {
  reviewer: string | null;
  /** The share of items meant for two reviewers (`--double-share`). */
  doubleShare: number;
  tasks: Array<{ suite: string; task: string; title: string; rubricVersion: string; counts: ReviewCounts }>;
}

/** A rubric as the reviewer reads it. */
export interface ReviewRubricView {
  version: string;
  definition: string;
  criteria: Array<{ id: string; text: string; points: number }>;
}

/** One of the reviewer's own grades of an item, as its history lists it. */
export interface ReviewHistoryEntry {
  gradedAt: string;
  score: number;
  verdicts: Record<string, boolean>;
  note: string;
}

/** One item to grade: its blinded token, what the model read, the reference and the answer, the rubric, and the reviewer's own grades of it (oldest first). */
export interface ReviewItemPayload {
  token: string;
  input: string;
  reference: string;
  answer: string;
  rubric: ReviewRubricView;
  history: ReviewHistoryEntry[];
}

/** The next item of the reviewer's queue (null: nothing left) and the queue's counts. */
export interface ReviewQueuePayload {
  title: string;
  counts: ReviewCounts;
  item: ReviewItemPayload | null;
}

/** The reviewer's graded items of a task, latest first: token, time and score of their current grade, and how many grades (edits) they gave it. */
export interface ReviewMinePayload {
  grades: Array<{ token: string; gradedAt: string; score: number; grades: number }>;
}

/** What the page posts to /api/grade: the item by suite, task and token, a verdict per criterion, a note. */
export interface GradeRequest {
  suite: string;
  task: string;
  token: string;
  verdicts: Record<string, boolean>;
  note: string;
}

/** The answer to a stored grade: what the reviewer may see of it. */
export interface GradeResponse {
  token: string;
  gradedAt: string;
  score: number;
}

/** The route grades are posted to, and the header carrying the viewer's per-start token. */
export const GRADE_ROUTE = '/api/grade';
export const GRADE_TOKEN_HEADER = 'x-medbench-token';
/** The page shell's meta tag holding that token. */
export const GRADE_TOKEN_META = 'medbench-token';
/** The longest note a grade takes (characters): one rule with `import grades` (src/core/grade-rules.ts). */
export { NOTE_LIMIT } from '../../core/grade-rules.js';
