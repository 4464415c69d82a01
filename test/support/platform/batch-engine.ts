import { type Clock, countLine, type Received } from './platform-basics.js';

/** Where a batch is in its life; each platform names these phases in its own words. */
export type Phase =
  | 'validating'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'failed'
  | 'expired'
  | 'cancelling'
  | 'cancelled';

export const ENDED: readonly Phase[] = ['completed', 'failed', 'expired', 'cancelled'];

export interface BatchLine {
  customId: string;
  body: Record<string, unknown>;
}

/** One line's outcome: an answer (`status` 200) or an error the provider's shape holds. */
export interface LineResult {
  customId: string;
  outcome: 'succeeded' | 'errored' | 'canceled' | 'expired';
  status: number;
  body: unknown;
}

export interface BatchJob {
  id: string;
  phase: Phase;
  lines: BatchLine[];
  results: Map<string, LineResult>;
  /** Milliseconds on the platform's clock when the batch entered each phase. */
  at: Partial<Record<Phase | 'created', number>>;
  /** Validation errors that failed the batch (OpenAI's errors.data). */
  errors: Array<{ code: string; message: string; line?: number }>;
  /** Whatever the platform keeps about the batch (endpoint, metadata, input file, display name). */
  extra: Record<string, unknown>;
}

export interface BatchEngineOptions {
  clock: Clock;
  received: Received;
  /** Answers one line (and bills it) when the batch processes it. */
  answer: (line: BatchLine, job: BatchJob) => LineResult;
  /** Errors found while validating (OpenAI); none: the batch starts in_progress. */
  validate?: (job: BatchJob) => BatchJob['errors'];
  /** How the provider reports lines never processed when the batch ends early. */
  unprocessed: (line: BatchLine, why: 'canceled' | 'expired') => LineResult;
  /** How long a batch may run before it expires on the platform's clock (default 24 hours). */
  windowMs?: number;
}

/**
 * The batch lifecycle every platform shares: validating → in_progress → finalizing → completed,
 * with failed, expired and cancelling → cancelled. Test controls: `holdAt` keeps batches in a
 * phase until `advance`; `advanceOnPoll` (default) moves a batch one phase per retrieval;
 * `process(id, n)` answers n lines of a batch in progress; `fail` and `expire` end it early; a
 * batch still running when the clock passes its window expires at its next retrieval.
 */
export class BatchEngine {
  readonly jobs = new Map<string, BatchJob>();
  holdAt: Phase | undefined;
  advanceOnPoll = true;

  constructor(private readonly options: BatchEngineOptions) {}

  create(id: string, lines: BatchLine[], extra: Record<string, unknown>, start: Phase): BatchJob {
    const job: BatchJob = {
      id,
      phase: start,
      lines,
      results: new Map(),
      at: { created: this.options.clock.now(), [start]: this.options.clock.now() },
      errors: [],
      extra,
    };
    this.jobs.set(id, job);
    this.options.received.batchesCreated += 1;
    for (const line of lines) countLine(this.options.received, line.customId);
    return job;
  }

  /** A retrieval: the batch moves one phase on unless held there. */
  poll(id: string): BatchJob | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    const window = this.options.windowMs ?? 24 * 3_600_000;
    const late = this.options.clock.now() - job.at.created! >= window;
    if (late && !ENDED.includes(job.phase) && job.phase !== 'cancelling') this.expire(id);
    else if (this.advanceOnPoll && job.phase !== this.holdAt) this.step(job);
    return job;
  }

  /** One phase on, whatever the hold. */
  advance(id: string): BatchJob {
    const job = this.job(id);
    this.step(job);
    return job;
  }

  /** Answers up to `count` pending lines of a batch in progress (all by default). */
  process(id: string, count = Number.POSITIVE_INFINITY): void {
    const job = this.job(id);
    let left = count;
    for (const line of job.lines) {
      if (left <= 0) break;
      if (job.results.has(line.customId)) continue;
      job.results.set(line.customId, this.options.answer(line, job));
      left--;
    }
  }

  cancel(id: string): BatchJob | undefined {
    const job = this.jobs.get(id);
    if (job && !ENDED.includes(job.phase)) this.enter(job, 'cancelling');
    return job;
  }

  fail(id: string, errors: BatchJob['errors'] = [{ code: 'server_error', message: 'The batch failed.' }]) {
    const job = this.job(id);
    job.errors = errors;
    this.enter(job, 'failed');
  }

  /** The 24-hour window ran out: processed lines keep their answers, the rest are expired. */
  expire(id: string): void {
    const job = this.job(id);
    this.settle(job, 'expired');
    this.enter(job, 'expired');
  }

  private job(id: string): BatchJob {
    const job = this.jobs.get(id);
    if (!job) throw new Error(`no batch ${id}`);
    return job;
  }

  private step(job: BatchJob): void {
    switch (job.phase) {
      case 'validating': {
        const errors = this.options.validate?.(job) ?? [];
        if (errors.length > 0) {
          job.errors = errors;
          this.enter(job, 'failed');
        } else this.enter(job, 'in_progress');
        return;
      }
      case 'in_progress':
        this.process(job.id);
        this.enter(job, 'finalizing');
        return;
      case 'finalizing':
        this.enter(job, 'completed');
        return;
      case 'cancelling':
        this.settle(job, 'canceled');
        this.enter(job, 'cancelled');
        return;
      default:
        return;
    }
  }

  private settle(job: BatchJob, why: 'canceled' | 'expired'): void {
    for (const line of job.lines)
      if (!job.results.has(line.customId))
        job.results.set(line.customId, this.options.unprocessed(line, why));
  }

  private enter(job: BatchJob, phase: Phase): void {
    job.phase = phase;
    job.at[phase] = this.options.clock.now();
  }
}

/** Seconds since the epoch, as OpenAI's timestamps are. */
export function unixSeconds(milliseconds: number | undefined): number | null {
  return milliseconds === undefined ? null : Math.floor(milliseconds / 1000);
}

/** RFC 3339, as Anthropic's and Gemini's timestamps are. */
export function rfc3339(milliseconds: number | undefined): string | null {
  return milliseconds === undefined ? null : new Date(milliseconds).toISOString();
}
