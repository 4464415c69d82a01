import {
  type BatchRecord,
  type BedrockQuotas,
  manifest,
  outputLine,
  parseRecords,
  type RecordResult,
} from './bedrock-records.js';
import { type BedrockS3, parseS3Uri } from './bedrock-s3.js';
import { type Clock, countLine, type Received } from './platform-basics.js';

/** A batch inference job's status, as GetModelInvocationJob reports it. */
export type BedrockStatus =
  | 'Submitted'
  | 'Validating'
  | 'Scheduled'
  | 'InProgress'
  | 'Stopping'
  | 'Stopped'
  | 'PartiallyCompleted'
  | 'Completed'
  | 'Failed'
  | 'Expired';

export const ENDED_STATUSES: readonly BedrockStatus[] = [
  'Stopped',
  'PartiallyCompleted',
  'Completed',
  'Failed',
  'Expired',
];

/** What CreateModelInvocationJob was given (the fields the platform keeps and reports back). */
export interface BedrockJobRequest {
  jobName: string;
  roleArn: string;
  modelId: string;
  clientRequestToken?: string;
  modelInvocationType?: string;
  inputDataConfig: { s3InputDataConfig: { s3Uri: string; s3InputFormat?: string; s3BucketOwner?: string } };
  outputDataConfig: {
    s3OutputDataConfig: { s3Uri: string; s3EncryptionKeyId?: string; s3BucketOwner?: string };
  };
  timeoutDurationInHours?: number;
  tags?: Array<{ key: string; value: string }>;
  vpcConfig?: unknown;
}

export interface BedrockJob {
  id: string;
  arn: string;
  request: BedrockJobRequest;
  timeoutDurationInHours: number;
  status: BedrockStatus;
  message?: string;
  submitTime: number;
  lastModifiedTime: number;
  endTime?: number;
  /** Read from S3 when the job is created (or, with `validateAt = 'job'`, while Validating). */
  records?: BatchRecord[];
  results: Map<string, RecordResult>;
  /** S3 keys the job wrote (outputs and manifest). */
  outputKeys: string[];
  /** Steps on this job run one at a time. */
  queue: Promise<unknown>;
}

export interface BedrockBatchesOptions {
  clock: Clock;
  received: Received;
  s3: BedrockS3;
  quotas: BedrockQuotas;
  /** Answers (and bills) one record of a job. */
  answer: (job: BedrockJob, record: BatchRecord) => RecordResult;
}

const HOUR_MS = 3_600_000;

/**
 * The batch inference job lifecycle: Submitted → Validating → Scheduled → InProgress → Completed,
 * Stopping → Stopped, Failed, and the timeout (Expired before it began, PartiallyCompleted once
 * InProgress). Outputs (`<jobId>/<input>.out` and `manifest.json.out`) are written to S3 when a job
 * completes, stops or partially completes. Test controls: `holdAt`, `advanceOnPoll`, `advance`,
 * `process`, `fail`, `expire`, `stop`, `failRecords`, `validateAt`.
 */
export class BedrockBatches {
  readonly jobs = new Map<string, BedrockJob>();
  /** Jobs stay in this status until `advance` (polls do not move them out of it). */
  holdAt: BedrockStatus | undefined;
  /** Each GetModelInvocationJob moves a job one status on (default). */
  advanceOnPoll = true;
  /** Records that get this error in the output instead of an answer, by recordId. */
  readonly failRecords = new Map<string, { errorCode: number; errorMessage: string }>();
  /**
   * Where bad input is found: 'create' (default) — CreateModelInvocationJob answers
   * ValidationException; 'job' — the job is created and goes Failed while Validating, with the
   * problem as its message.
   */
  validateAt: 'create' | 'job' = 'create';
  /** The documented output order is not guaranteed to follow the input: 'reversed' writes it backwards. */
  outputOrder: 'input' | 'reversed' = 'input';

  constructor(readonly options: BedrockBatchesOptions) {}

  /** The job's records from S3, or why they fail validation. */
  async load(request: BedrockJobRequest): Promise<{ records: BatchRecord[] } | string> {
    const uri = request.inputDataConfig.s3InputDataConfig.s3Uri;
    const location = parseS3Uri(uri)!;
    let files: Awaited<ReturnType<BedrockS3['readInput']>>;
    try {
      files = await this.options.s3.readInput(location);
    } catch (error) {
      return `Unable to read the input at ${uri}: ${(error as Error).name}.`;
    }
    if (files.length === 0) return `No .jsonl input files were found at ${uri}.`;
    this.options.received.files += files.length;
    return parseRecords(files, this.options.quotas);
  }

  add(job: Omit<BedrockJob, 'results' | 'outputKeys' | 'queue' | 'status' | 'lastModifiedTime'>): BedrockJob {
    const added: BedrockJob = {
      ...job,
      status: 'Submitted',
      lastModifiedTime: job.submitTime,
      results: new Map(),
      outputKeys: [],
      queue: Promise.resolve(),
    };
    this.jobs.set(job.id, added);
    this.options.received.batchesCreated += 1;
    this.countRecords(added);
    return added;
  }

  /** Jobs not ended yet (what the concurrent-jobs quota counts). */
  running(): number {
    return [...this.jobs.values()].filter((job) => !ENDED_STATUSES.includes(job.status)).length;
  }

  /** A retrieval: a job past its timeout ends; otherwise it moves one status on unless held. */
  poll(id: string): Promise<BedrockJob | undefined> {
    const job = this.jobs.get(id);
    if (!job) return Promise.resolve(undefined);
    return this.locked(job, async () => {
      if (await this.timeOutIfDue(job)) return job;
      if (this.advanceOnPoll && job.status !== this.holdAt) await this.step(job);
      return job;
    });
  }

  /** Ends every job past its timeout (listing sees them ended, as a real account would). */
  async settleTimeouts(): Promise<void> {
    for (const job of this.jobs.values()) await this.locked(job, () => this.timeOutIfDue(job));
  }

  /** One status on, whatever the hold. */
  advance(id: string): Promise<BedrockJob> {
    const job = this.job(id);
    return this.locked(job, async () => {
      await this.step(job);
      return job;
    });
  }

  /** Answers up to `count` pending records of a job (all by default), as InProgress does. */
  process(id: string, count = Number.POSITIVE_INFINITY): void {
    const job = this.job(id);
    let left = count;
    for (const record of job.records ?? []) {
      if (left <= 0) break;
      if (job.results.has(record.recordId)) continue;
      const failure = this.failRecords.get(record.recordId);
      job.results.set(
        record.recordId,
        failure
          ? { recordId: record.recordId, error: failure, inputTokens: 0, outputTokens: 0 }
          : this.options.answer(job, record),
      );
      left--;
    }
  }

  /** StopModelInvocationJob: a job not ended goes Stopping (its next step: Stopped). */
  stop(id: string): Promise<BedrockJob> {
    const job = this.job(id);
    return this.locked(job, async () => {
      if (!ENDED_STATUSES.includes(job.status) && job.status !== 'Stopping') this.enter(job, 'Stopping');
      return job;
    });
  }

  fail(id: string, message = 'The batch inference job failed. Retry the job.'): Promise<BedrockJob> {
    const job = this.job(id);
    return this.locked(job, async () => {
      job.message = message;
      this.enter(job, 'Failed');
      return job;
    });
  }

  /** The job's timeout ran out now: Expired if it had not begun, PartiallyCompleted if InProgress. */
  expire(id: string): Promise<BedrockJob> {
    const job = this.job(id);
    return this.locked(job, async () => {
      await this.timeOut(job);
      return job;
    });
  }

  /** When the job times out (submitTime + timeoutDurationInHours). */
  expirationTime(job: BedrockJob): number {
    return job.submitTime + job.timeoutDurationInHours * HOUR_MS;
  }

  job(id: string): BedrockJob {
    const job = this.jobs.get(id);
    if (!job) throw new Error(`no batch inference job ${id}`);
    return job;
  }

  private locked<T>(job: BedrockJob, work: () => Promise<T>): Promise<T> {
    const next = job.queue.then(work);
    job.queue = next.catch(() => undefined);
    return next;
  }

  private countRecords(job: BedrockJob): void {
    for (const record of job.records ?? []) countLine(this.options.received, record.recordId);
  }

  private async timeOutIfDue(job: BedrockJob): Promise<boolean> {
    if (ENDED_STATUSES.includes(job.status) || this.options.clock.now() < this.expirationTime(job))
      return false;
    await this.timeOut(job);
    return true;
  }

  private async timeOut(job: BedrockJob): Promise<void> {
    if (ENDED_STATUSES.includes(job.status)) return;
    if (job.status === 'InProgress' || job.status === 'Stopping')
      return this.end(job, job.status === 'Stopping' ? 'Stopped' : 'PartiallyCompleted');
    job.message = `The job did not begin within its timeout of ${job.timeoutDurationInHours} hours.`;
    this.enter(job, 'Expired');
  }

  private async step(job: BedrockJob): Promise<void> {
    switch (job.status) {
      case 'Submitted':
        return this.enter(job, 'Validating');
      case 'Validating':
        return this.validate(job);
      case 'Scheduled':
        return this.enter(job, 'InProgress');
      case 'InProgress':
        this.process(job.id);
        return this.end(job, 'Completed');
      case 'Stopping':
        return this.end(job, 'Stopped');
      default:
        return;
    }
  }

  private async validate(job: BedrockJob): Promise<void> {
    if (!job.records) {
      const loaded = await this.load(job.request);
      if (typeof loaded === 'string') {
        job.message = loaded;
        return this.enter(job, 'Failed');
      }
      job.records = loaded.records;
      this.countRecords(job);
    }
    this.enter(job, 'Scheduled');
  }

  /** Writes the outputs and enters `status`; a job whose output cannot be written fails. */
  private async end(job: BedrockJob, status: BedrockStatus): Promise<void> {
    try {
      await this.writeOutputs(job);
    } catch (error) {
      const uri = job.request.outputDataConfig.s3OutputDataConfig.s3Uri;
      job.message = `Unable to write the output to ${uri}: ${(error as Error).name}.`;
      return this.enter(job, 'Failed');
    }
    this.enter(job, status);
  }

  /** `<output uri>/<jobId>/<input name>.out` per input file, then `manifest.json.out`. */
  private async writeOutputs(job: BedrockJob): Promise<void> {
    const output = parseS3Uri(job.request.outputDataConfig.s3OutputDataConfig.s3Uri)!;
    const prefix = `${output.key === '' || output.key.endsWith('/') ? output.key : `${output.key}/`}${job.id}/`;
    const byFile = new Map<string, string[]>();
    const records = [...(job.records ?? [])];
    if (this.outputOrder === 'reversed') records.reverse();
    for (const record of records) {
      const result = job.results.get(record.recordId);
      if (!result) continue;
      byFile.set(record.file, [...(byFile.get(record.file) ?? []), outputLine(record, result)]);
    }
    const writes: Array<[string, string]> = [...byFile].map(([file, lines]) => [
      `${prefix}${file}.out`,
      `${lines.join('\n')}\n`,
    ]);
    writes.push([`${prefix}manifest.json.out`, JSON.stringify(manifest(job.records ?? [], job.results))]);
    for (const [key, text] of writes) {
      await this.options.s3.put({ bucket: output.bucket, key }, text);
      job.outputKeys.push(key);
    }
  }

  private enter(job: BedrockJob, status: BedrockStatus): void {
    job.status = status;
    job.lastModifiedTime = this.options.clock.now();
    if (ENDED_STATUSES.includes(status)) job.endTime = job.lastModifiedTime;
  }
}
