import type { Readable } from 'node:stream';
import type * as Batches from '../../core/batch-client.js';
import type { ChatRequest } from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { outputPages } from './bedrock-batch-output.js';
import type { BatchSdk } from './bedrock-batch-sdk.js';
import { asPrefix, type BatchPlacement, s3Place } from './bedrock-batch-settings.js';

/** Where and how the client reaches Bedrock and S3, and how it builds a record's body. */
export interface BedrockBatchAccess {
  modelId: string;
  placement: BatchPlacement;
  sdk(): Promise<BatchSdk>;
  /** A record's `modelInput`: the model's native InvokeModel body. */
  body(request: ChatRequest): Record<string, unknown>;
  /** An SDK failure as medbench's error, `shown` naming where it was sent. */
  failure(caught: unknown, shown: string, signal?: AbortSignal): MedbenchError;
}

/** A job's states (GetModelInvocationJob's `status`) by the lifecycle's phase; an unknown one is waited on. */
const ENDED = new Set(['Completed', 'PartiallyCompleted', 'Stopped']);
const FAILED = new Set(['Failed', 'Expired']);

/**
 * The job name and the idempotency token of a submission: its local id (`medbench-<uuid>`), which
 * fits both patterns (`[a-zA-Z0-9](-*[a-zA-Z0-9+\-.])*`, at most 63 characters; the token's
 * `[a-zA-Z0-9](-*[a-zA-Z0-9])*`). The token makes a create that Bedrock already took return the
 * same job, so a run killed while creating never makes a second one.
 */
export const jobNameOf = (localId: string) => localId.replace(/[^a-zA-Z0-9-]/g, '-').slice(0, 63);

/**
 * Amazon Bedrock's batch inference (CreateModelInvocationJob): the requests as one JSONL file in
 * S3 (`{recordId, modelInput}`, the custom id as record id), a job on it named after medbench's
 * submission with the same id as its client request token, its status, and its output file read
 * from S3 a page at a time. Bedrock takes at least 100 records a job (its documented minimum, a
 * service quota) and at most 50,000, in an input file of at most 1 GB.
 */
export class BedrockBatchClient implements Batches.BatchClient {
  readonly maxRequests = 50_000;
  readonly minRequests = 100;
  readonly maxBytes = 1_000_000_000;

  constructor(private readonly access: BedrockBatchAccess) {}

  /** One SDK call, its failure as medbench's error. */
  private async call<T>(shown: string, signal: AbortSignal | undefined, send: (sdk: BatchSdk) => Promise<T>) {
    try {
      return await send(await this.access.sdk());
    } catch (caught) {
      throw this.access.failure(caught, shown, signal);
    }
  }

  /** The SDK clients loaded (optional parts) and the region known, before anything is recorded. */
  async ready(): Promise<void> {
    await this.access.sdk();
  }

  async upload(
    batch: Batches.BatchIdentity,
    lines: readonly Batches.BatchRequestLine[],
    signal?: AbortSignal,
  ): Promise<string> {
    const { input } = this.access.placement;
    const key = `${input.key}${batch.localId}.jsonl`;
    const uri = `s3://${input.bucket}/${key}`;
    const body = lines
      .map(({ customId, request }) =>
        JSON.stringify({ recordId: customId, modelInput: this.access.body(request) }),
      )
      .join('\n');
    await this.call(uri, signal, (sdk) =>
      sdk.s3.send(
        new sdk.storage.PutObjectCommand({
          Bucket: input.bucket,
          Key: key,
          Body: `${body}\n`,
          ContentType: 'application/jsonl',
        }),
        abortable(signal),
      ),
    );
    return uri;
  }

  async create(
    batch: Batches.BatchIdentity,
    _lines: readonly Batches.BatchRequestLine[],
    signal?: AbortSignal,
  ): Promise<string> {
    const { placement, modelId } = this.access;
    const created = await this.call('Bedrock CreateModelInvocationJob', signal, (sdk) =>
      sdk.control.send(
        new sdk.bedrock.CreateModelInvocationJobCommand({
          jobName: jobNameOf(batch.localId),
          clientRequestToken: jobNameOf(batch.localId),
          modelId,
          roleArn: placement.roleArn,
          inputDataConfig: { s3InputDataConfig: { s3Uri: inputOf(batch), s3InputFormat: 'JSONL' } },
          outputDataConfig: { s3OutputDataConfig: { s3Uri: placement.outputUri } },
        }),
        abortable(signal),
      ),
    );
    if (!created.jobArn)
      throw new MedbenchError({
        code: 'ENDPOINT_BAD_RESPONSE',
        message: 'Bedrock answered CreateModelInvocationJob without a jobArn.',
        retryable: true,
      });
    return created.jobArn;
  }

  /** The job a killed run created: named after the submission, on its input file, with its token. */
  async find(batch: Batches.BatchIdentity, signal?: AbortSignal): Promise<string | undefined> {
    const name = jobNameOf(batch.localId);
    let nextToken: string | undefined;
    do {
      const page = await this.call('Bedrock ListModelInvocationJobs', signal, (sdk) =>
        sdk.control.send(
          new sdk.bedrock.ListModelInvocationJobsCommand({
            nameContains: name,
            maxResults: 100,
            ...(nextToken ? { nextToken } : {}),
          }),
          abortable(signal),
        ),
      );
      const job = (page.invocationJobSummaries ?? []).find(
        (summary) =>
          summary.jobName === name &&
          summary.inputDataConfig?.s3InputDataConfig?.s3Uri === inputOf(batch) &&
          (summary.clientRequestToken === undefined || summary.clientRequestToken === name),
      );
      if (job?.jobArn) return job.jobArn;
      nextToken = page.nextToken;
    } while (nextToken);
    return undefined;
  }

  private job(jobArn: string, signal?: AbortSignal) {
    return this.call('Bedrock GetModelInvocationJob', signal, (sdk) =>
      sdk.control.send(
        new sdk.bedrock.GetModelInvocationJobCommand({ jobIdentifier: jobArn }),
        abortable(signal),
      ),
    );
  }

  /**
   * Completed and PartiallyCompleted jobs have output; so may a Stopped one (Bedrock bills the
   * tokens it processed before the stop): the three are read, and the records without an answer
   * failed. Failed and Expired (never begun) have none.
   */
  async status(jobArn: string, signal?: AbortSignal): Promise<Batches.BatchStatus> {
    const job = await this.job(jobArn, signal);
    const state = job.status ?? 'Submitted';
    return {
      state,
      phase: ENDED.has(state) ? 'ended' : FAILED.has(state) ? 'failed' : 'running',
      counts: {
        done: job.successRecordCount ?? 0,
        failed: job.errorRecordCount ?? 0,
        total: job.totalRecordCount ?? 0,
      },
      ...(job.message ? { reason: job.message } : {}),
    };
  }

  /** The output files under `<output URI>/<job id>/` (one `.jsonl.out` an input file), listed and streamed a page at a time. */
  async *results(jobArn: string, signal?: AbortSignal): AsyncIterable<Batches.BatchResult[]> {
    const job = await this.job(jobArn, signal);
    const output = job.outputDataConfig?.s3OutputDataConfig?.s3Uri ?? this.access.placement.outputUri;
    const { bucket, key } = s3Place(output);
    const prefix = `${asPrefix(key)}${jobArn.split('/').at(-1)}/`;
    let continuation: string | undefined;
    do {
      const listed = await this.call(`s3://${bucket}/${prefix}`, signal, (sdk) =>
        sdk.s3.send(
          new sdk.storage.ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            ...(continuation ? { ContinuationToken: continuation } : {}),
          }),
          abortable(signal),
        ),
      );
      for (const object of listed.Contents ?? [])
        if (object.Key?.endsWith('.jsonl.out')) yield* this.outputFile(bucket, object.Key, signal);
      continuation = listed.IsTruncated ? listed.NextContinuationToken : undefined;
    } while (continuation);
  }

  private async *outputFile(
    bucket: string,
    key: string,
    signal?: AbortSignal,
  ): AsyncIterable<Batches.BatchResult[]> {
    const uri = `s3://${bucket}/${key}`;
    const object = await this.call(uri, signal, (sdk) =>
      sdk.s3.send(new sdk.storage.GetObjectCommand({ Bucket: bucket, Key: key }), abortable(signal)),
    );
    if (!object.Body) return;
    try {
      yield* outputPages(object.Body as Readable, uri);
    } catch (caught) {
      throw this.access.failure(caught, uri, signal);
    }
  }
}

const abortable = (signal: AbortSignal | undefined) => (signal ? { abortSignal: signal } : {});

/** The submission's input file, which its upload recorded. */
function inputOf(batch: Batches.BatchIdentity): string {
  if (!batch.fileId)
    throw new MedbenchError({
      code: 'STORE_DAMAGED',
      message: `medbench's submission ${batch.localId} is recorded as uploaded without its input file in S3.`,
    });
  return batch.fileId;
}
