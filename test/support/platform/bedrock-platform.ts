import { answerClaudeRecord } from './bedrock-claude.js';
import {
  type BedrockRequestRecord,
  type ControlPlaneState,
  type InjectedError,
  routeControlPlane,
} from './bedrock-control-plane.js';
import { answerConverseRecord } from './bedrock-converse.js';
import { BedrockBatches } from './bedrock-jobs.js';
import { type BedrockQuotas, DEFAULT_BEDROCK_QUOTAS } from './bedrock-records.js';
import { type BedrockS3, S3RVER_CREDENTIALS, startBedrockS3 } from './bedrock-s3.js';
import { type BedrockCredentials, sendBedrockError } from './bedrock-wire.js';
import type { BillingLedger } from './billing-ledger.js';
import { DEFAULT_PRICES } from './billing-ledger.js';
import { type Clock, listen, type Received } from './platform-basics.js';
import { type PlatformBaseOptions, platformSetup } from './platform-setup.js';
import { BreakpointCache } from './prefix-cache.js';

export type { BedrockJob, BedrockStatus } from './bedrock-jobs.js';
export type { BedrockQuotas } from './bedrock-records.js';

export interface BedrockPlatformOptions extends PlatformBaseOptions {
  /** The region requests must be signed for (default us-east-1). */
  region?: string;
  /** The account id in job ARNs (default 123456789012). */
  accountId?: string;
  /** The keys requests must be signed with (default S3RVER / S3RVER: the same keys work for S3). */
  credentials?: BedrockCredentials;
  /** Buckets the platform's S3 server starts with (default ['medbench-batch']). */
  buckets?: string[];
  /** An S3 endpoint to use instead of starting s3rver (path-style, S3RVER credentials). */
  s3Endpoint?: string;
  /** Batch inference quotas (default: the documented defaults, DEFAULT_BEDROCK_QUOTAS). */
  quotas?: Partial<BedrockQuotas>;
}

export interface BedrockPlatform {
  /** The Bedrock control plane: `new BedrockClient({ endpoint: url, region, credentials })`. */
  url: string;
  region: string;
  accountId: string;
  credentials: BedrockCredentials;
  /** The S3 server: `new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER })`. */
  s3: BedrockS3;
  /** The first bucket (where tests put input and read output). */
  bucket: string;
  clock: Clock;
  /** The job lifecycle and its controls (holdAt, advanceOnPoll, advance, process, stop, fail, expire, failRecords, validateAt). */
  batches: BedrockBatches;
  /** Input files read, jobs created, record ids submitted (batchLines), output downloads (S3 GetObject of job outputs). */
  received: Received;
  /** Every control-plane request, in order. */
  requests: BedrockRequestRecord[];
  /** Errors the next matching requests get, first match first (ThrottlingException, InternalServerException, …). */
  injectedErrors: InjectedError[];
  ledger: BillingLedger;
  /** The next S3 GetObject through `s3.endpoint` sends half its body, then closes the connection. */
  cutNextDownload: boolean;
  close(): Promise<void>;
}

/**
 * A local stand-in for Amazon Bedrock batch inference, written from the Bedrock API reference and user
 * guide: the control plane (CreateModelInvocationJob, GetModelInvocationJob, ListModelInvocationJobs,
 * StopModelInvocationJob; REST-JSON, SigV4-signed for service `bedrock`, documented errors in
 * x-amzn-ErrorType) and a real S3 server (s3rver) the jobs read JSONL input from and write
 * `<jobId>/<input>.out` and `manifest.json.out` to. Records are Anthropic Claude InvokeModel bodies,
 * answered by the platforms' deterministic answer function and billed at the batch price.
 */
export async function startBedrockPlatform(options: BedrockPlatformOptions = {}): Promise<BedrockPlatform> {
  const setup = platformSetup(options, DEFAULT_PRICES.bedrock);
  const buckets = options.buckets ?? ['medbench-batch'];
  const s3 = await startBedrockS3({
    buckets,
    onDownload: () => {
      setup.received.resultDownloads += 1;
    },
    ...(options.s3Endpoint ? { endpoint: options.s3Endpoint } : {}),
  });
  const runtime = { ...setup, cache: new BreakpointCache(setup.clock, setup.countTokens) };
  const batches = new BedrockBatches({
    clock: setup.clock,
    received: setup.received,
    s3,
    quotas: { ...DEFAULT_BEDROCK_QUOTAS, ...options.quotas },
    answer: (job, record) =>
      job.request.modelInvocationType === 'Converse'
        ? answerConverseRecord(runtime, job.request.modelId, record)
        : answerClaudeRecord(setup, job.request.modelId, record),
  });
  const state: ControlPlaneState = {
    runtime,
    received: setup.received,
    region: options.region ?? 'us-east-1',
    accountId: options.accountId ?? '123456789012',
    credentials: options.credentials ?? S3RVER_CREDENTIALS,
    clock: setup.clock,
    batches,
    requests: [],
    injectedErrors: [],
  };
  const server = await listen((exchange) => {
    routeControlPlane(state, exchange).catch((error: unknown) =>
      sendBedrockError(exchange, 'InternalServerException', String(error)),
    );
  });
  const platform = {
    ...state,
    url: server.url,
    s3,
    bucket: buckets[0]!,
    received: setup.received,
    ledger: setup.ledger,
    get cutNextDownload() {
      return s3.cutNextDownload;
    },
    set cutNextDownload(value: boolean) {
      s3.cutNextDownload = value;
    },
    close: async () => {
      await server.close();
      await s3.close();
    },
  };
  return platform;
}
