import { z } from 'zod';
import { MedbenchError } from '../core/errors.js';
import type { ReviewRubric, Suite, SuiteReview } from '../core/suite.js';
import { rubricScore } from '../metrics/judge/rubric.js';
import type { HumanGrade } from '../store/human-grades.js';
import type { Store } from '../store/store.js';
import {
  DEFAULT_DOUBLE_SHARE,
  REVIEW_SEED,
  type ReviewQueue,
  type ReviewQueueItem,
  reviewQueue,
  reviewToken,
} from './review-queue.js';
import {
  type GradeRequest,
  NOTE_LIMIT,
  type ReviewItemPayload,
  type ReviewMinePayload,
  type ReviewOverview,
  type ReviewQueuePayload,
} from './shared/review-types.js';

/** `medbench view`'s review settings (docs/review.md). */
export interface ReviewSettings {
  /** Who grades; absent: the review page shows the queue's counts only. */
  reviewer?: string;
  seed?: string;
  doubleShare?: number;
  /** Rubric files replacing shipped ones (`--rubric`). */
  rubricFiles?: readonly string[];
}

interface ReviewTask {
  suite: Suite;
  review: SuiteReview;
  rubric: ReviewRubric;
}

/** A task's gradable answers: every answered item of every run of the suite, by token. */
type TaskItems = Map<string, ReviewQueueItem>;

/** What the page posts, before it is checked against the task's rubric and items. */
export const gradeRequestSchema = z.strictObject({
  suite: z.string().min(1),
  task: z.string().min(1),
  token: z.string().regex(/^[0-9a-f]{16}$/, 'an item token is 16 hexadecimal digits'),
  verdicts: z.record(z.string(), z.boolean({ error: 'each criterion is true (met) or false (not met)' })),
  note: z.string().max(NOTE_LIMIT, `a note is at most ${NOTE_LIMIT} characters`).default(''),
}) satisfies z.ZodType<GradeRequest, unknown>;

const refused = (message: string) => new MedbenchError({ code: 'USAGE', message });

/**
 * The review pages' payloads over the store (docs/review.md): each reviewable task's blinded,
 * randomised queue (`reviewQueue`) over the answered items of every run of its suite, the
 * reviewer's own grades, and the grade a posted request stands for. Nothing it sends names a run.
 */
export class ReviewData {
  readonly reviewer: string | null;
  readonly seed: string;
  readonly doubleShare: number;
  private readonly tasks = new Map<string, ReviewTask>();
  private readonly items = new Map<string, TaskItems>();
  private seenVersion = -1;

  constructor(
    private readonly store: Store,
    suites: readonly Suite[],
    settings: ReviewSettings = {},
  ) {
    this.reviewer = settings.reviewer ?? null;
    this.seed = settings.seed ?? REVIEW_SEED;
    this.doubleShare = settings.doubleShare ?? DEFAULT_DOUBLE_SHARE;
    for (const suite of suites) {
      if (!suite.review) continue;
      for (const [task, rubric] of Object.entries(suite.review.rubrics(settings.rubricFiles)))
        this.tasks.set(`${suite.name}\n${task}`, { suite, review: suite.review, rubric });
    }
  }

  /** Every answered item of a task: results with an output (imported score-only rows have none). */
  private taskItems(key: string, entry: ReviewTask): TaskItems {
    const version = this.store.dataVersion();
    if (version !== this.seenVersion) {
      this.seenVersion = version;
      this.items.clear();
    }
    let items = this.items.get(key);
    if (!items) {
      items = new Map();
      for (const run of this.store.listRuns({ suite: entry.suite.name }))
        for (const result of this.store.results(run.id, { task: entry.rubric.task }))
          if (entry.review.reviewable(result)) {
            const item = { runId: run.id, sampleId: result.sampleId, task: result.task };
            items.set(reviewToken(this.seed, item), item);
          }
      this.items.set(key, items);
    }
    return items;
  }

  private queue(key: string, entry: ReviewTask): ReviewQueue {
    const items = [...this.taskItems(key, entry).values()];
    const grades = this.store.humanGrades.current({ task: entry.rubric.task });
    return reviewQueue(items, grades, {
      seed: this.seed,
      doubleShare: this.doubleShare,
      reviewer: this.reviewer ?? '',
    });
  }

  private task(suite: string, task: string): [string, ReviewTask] | undefined {
    const key = `${suite}\n${task}`;
    const entry = this.tasks.get(key);
    return entry ? [key, entry] : undefined;
  }

  overview(): ReviewOverview {
    return {
      reviewer: this.reviewer,
      doubleShare: this.doubleShare,
      tasks: [...this.tasks].map(([key, entry]) => ({
        suite: entry.suite.name,
        task: entry.rubric.task,
        title: entry.suite.groupTitle?.(entry.rubric.task) ?? entry.rubric.task,
        rubricVersion: entry.rubric.version,
        counts: this.queue(key, entry).counts,
      })),
    };
  }

  /** The reviewer's next item of a task and the queue's counts; undefined without a reviewer or for an unknown task. */
  next(suite: string, task: string): ReviewQueuePayload | undefined {
    const found = this.task(suite, task);
    if (!found || this.reviewer === null) return undefined;
    const [key, entry] = found;
    const queue = this.queue(key, entry);
    const next = queue.next[0];
    return {
      title: entry.suite.groupTitle?.(entry.rubric.task) ?? entry.rubric.task,
      counts: queue.counts,
      item: next ? this.itemPayload(entry, reviewToken(this.seed, next), next) : null,
    };
  }

  /** One item by its token, with the reviewer's own grades of it (to edit one). */
  item(suite: string, task: string, token: string): ReviewItemPayload | undefined {
    const found = this.task(suite, task);
    if (!found || this.reviewer === null) return undefined;
    const item = this.taskItems(...found).get(token);
    return item ? this.itemPayload(found[1], token, item) : undefined;
  }

  private itemPayload(entry: ReviewTask, token: string, item: ReviewQueueItem): ReviewItemPayload {
    const result = this.store.result(item.runId, item.sampleId)!;
    const prompt = (result.promptHash && this.store.getPrompt(result.promptHash)) || null;
    const shown = entry.review.itemOf(result, prompt)!;
    const { version, definition, criteria } = entry.rubric;
    return {
      token,
      input: shown.input,
      reference: shown.reference,
      answer: shown.answer,
      rubric: {
        version,
        definition,
        criteria: criteria.map(({ id, text, points }) => ({ id, text, points })),
      },
      history: this.store.humanGrades
        .history({ runId: item.runId, sampleId: item.sampleId, reviewer: this.reviewer ?? '' })
        .map(({ gradedAt, score, verdicts, note }) => ({ gradedAt, score, verdicts: { ...verdicts }, note })),
    };
  }

  /** The reviewer's graded items of a task, latest grade first. */
  mine(suite: string, task: string): ReviewMinePayload | undefined {
    const found = this.task(suite, task);
    if (!found || this.reviewer === null) return undefined;
    const items = this.taskItems(...found);
    const tokens = new Map([...items].map(([token, item]) => [`${item.runId}\n${item.sampleId}`, token]));
    const latest = new Map<string, ReviewMinePayload['grades'][number]>();
    for (const grade of this.store.humanGrades.history({ task, reviewer: this.reviewer })) {
      const token = tokens.get(`${grade.runId}\n${grade.sampleId}`);
      if (token === undefined) continue;
      const count = (latest.get(token)?.grades ?? 0) + 1;
      latest.set(token, { token, gradedAt: grade.gradedAt, score: grade.score, grades: count });
    }
    return { grades: [...latest.values()].sort((a, b) => b.gradedAt.localeCompare(a.gradedAt)) };
  }

  /**
   * The grade a posted request stands for, checked against the task's rubric and items: a
   * USAGE error saying what is wrong for anything else (the server answers it with 400).
   */
  gradeOf(body: unknown, gradedAt: string): Omit<HumanGrade, 'id'> {
    if (this.reviewer === null) throw refused('This viewer was started without --reviewer.');
    const parsed = gradeRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw refused(`${issue.path.join('.') || 'the body'}: ${issue.message}`);
    }
    const request = parsed.data;
    const found = this.task(request.suite, request.task);
    if (!found) throw refused(`No reviewable task "${request.task}" of suite "${request.suite}".`);
    const rubric = found[1].rubric;
    const item = this.taskItems(...found).get(request.token);
    if (!item) throw refused(`No item "${request.token}" in the ${request.task} queue.`);
    const ids = rubric.criteria.map((criterion) => criterion.id);
    const missing = ids.filter((id) => !Object.hasOwn(request.verdicts, id));
    const unknown = Object.keys(request.verdicts).filter((id) => !ids.includes(id));
    if (missing.length > 0)
      throw refused(
        missing.length === 1
          ? `No verdict for criterion ${missing[0]}; mark it met or not met.`
          : `No verdict for ${missing.length} criteria: ${missing.join(', ')}; mark each met or not met.`,
      );
    if (unknown.length > 0) throw refused(`Not criteria of this rubric: ${unknown.join(', ')}.`);
    const verdicts = Object.fromEntries(ids.map((id) => [id, request.verdicts[id]!]));
    const met = new Set(ids.filter((id) => verdicts[id]));
    return {
      runId: item.runId,
      sampleId: item.sampleId,
      task: rubric.task,
      reviewer: this.reviewer,
      rubricVersion: rubric.version,
      rubricSha256: rubric.sha256,
      verdicts,
      score: rubricScore({ criteria: [...rubric.criteria] }, met).score,
      note: request.note,
      gradedAt,
      source: 'viewer',
    };
  }
}

type Parameter = (name: string) => string;

/** The review API routes (GET): the overview, a task's next item, one item by token, the reviewer's grades. */
const REVIEW_ROUTES: Record<string, (review: ReviewData, parameter: Parameter) => unknown> = {
  review: (review) => review.overview(),
  queue: (review, parameter) => review.next(parameter('suite'), parameter('task')),
  item: (review, parameter) => review.item(parameter('suite'), parameter('task'), parameter('token')),
  mine: (review, parameter) => review.mine(parameter('suite'), parameter('task')),
};

/** A review route's payload; undefined for another route, or an unknown task or item. */
export function reviewPayload(review: ReviewData, route: string, query: URLSearchParams): unknown {
  const answer = Object.hasOwn(REVIEW_ROUTES, route) ? REVIEW_ROUTES[route] : undefined;
  return answer?.(review, (name) => query.get(name) ?? '');
}
