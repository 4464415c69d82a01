import { createHash } from 'node:crypto';

/** One answer people can grade: a stored result of a reviewed task. */
export interface ReviewQueueItem {
  runId: string;
  sampleId: string;
  task: string;
}

/** Who has graded an item (a reviewer's current grade; edits do not count again). */
export interface ReviewQueueGrade {
  runId: string;
  sampleId: string;
  reviewer: string;
}

export interface ReviewQueueOptions {
  /** The queue's seed: the same seed gives every reviewer the same blinded tokens and double-rated set. */
  seed: string;
  /** The share of items (0–1) meant to be graded by two reviewers, for inter-rater agreement. */
  doubleShare: number;
  /** Whose queue it is. */
  reviewer: string;
}

/** The default seed and double-rated share (docs/review.md). */
export const REVIEW_SEED = 'medbench-review-1';
export const DEFAULT_DOUBLE_SHARE = 0.2;

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');

/** An item's blinded name: says nothing of the run, the model or the sample, the same for every reviewer of one seed. */
export function reviewToken(seed: string, item: Pick<ReviewQueueItem, 'runId' | 'sampleId'>): string {
  return digest(seed, 'token', item.runId, item.sampleId).slice(0, 16);
}

/** Whether an item belongs to the double-rated share: a uniform draw from its digest, below `share`. */
export function doubleRated(
  seed: string,
  item: Pick<ReviewQueueItem, 'runId' | 'sampleId'>,
  share: number,
): boolean {
  return (
    Number.parseInt(digest(seed, 'double', item.runId, item.sampleId).slice(0, 13), 16) / 2 ** 52 < share
  );
}

export interface ReviewQueue {
  /** What the reviewer grades next, in order: first items of the double-rated share that another reviewer graded, then items nobody graded. */
  next: ReviewQueueItem[];
  /** Items in the queue, items graded by anyone, by this reviewer, the double-rated share's size and how many of it two reviewers graded. */
  counts: { items: number; graded: number; mine: number; doubleShare: number; doubleDone: number };
}

/**
 * A reviewer's blinded, randomised queue over the answers of every run of a task: each reviewer
 * sees the items in an order of their own (a digest of seed, reviewer and item), models mixed. An
 * item is due when nobody graded it yet, or when it is of the double-rated share and exactly one
 * other reviewer graded it — those come first, so the share gets its second grades while people
 * work. An item the reviewer graded is never due again (they edit it from their own list).
 */
export function reviewQueue(
  items: readonly ReviewQueueItem[],
  grades: readonly ReviewQueueGrade[],
  options: ReviewQueueOptions,
): ReviewQueue {
  const key = (item: Pick<ReviewQueueItem, 'runId' | 'sampleId'>) => `${item.runId}\n${item.sampleId}`;
  const reviewers = new Map<string, Set<string>>();
  for (const grade of grades) {
    const set = reviewers.get(key(grade)) ?? new Set<string>();
    set.add(grade.reviewer);
    reviewers.set(key(grade), set);
  }
  const counts = { items: items.length, graded: 0, mine: 0, doubleShare: 0, doubleDone: 0 };
  const second: Array<[string, ReviewQueueItem]> = [];
  const first: Array<[string, ReviewQueueItem]> = [];
  for (const item of items) {
    const who = reviewers.get(key(item)) ?? new Set<string>();
    const double = doubleRated(options.seed, item, options.doubleShare);
    if (who.size > 0) counts.graded++;
    if (who.has(options.reviewer)) counts.mine++;
    if (double) counts.doubleShare++;
    if (double && who.size >= 2) counts.doubleDone++;
    if (who.has(options.reviewer)) continue;
    const order = digest(options.seed, 'order', options.reviewer, item.runId, item.sampleId);
    if (who.size === 0) first.push([order, item]);
    else if (double && who.size === 1) second.push([order, item]);
  }
  const sorted = (list: Array<[string, ReviewQueueItem]>) =>
    list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);
  return { next: [...sorted(second), ...sorted(first)], counts };
}
