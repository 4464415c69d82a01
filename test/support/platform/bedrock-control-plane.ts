import { z } from 'zod';
import { isClaudeModel } from './bedrock-claude.js';
import { type ConverseContext, converse } from './bedrock-converse.js';
import {
  type BedrockBatches,
  type BedrockJob,
  type BedrockJobRequest,
  ENDED_STATUSES,
} from './bedrock-jobs.js';
import {
  type BedrockCredentials,
  type BedrockErrorType,
  isoTime,
  jobArn,
  jobIdOf,
  newJobId,
  refuseUnsigned,
  sendBedrockError,
  sendBedrockJson,
} from './bedrock-wire.js';
import { type Clock, type Exchange, parseJson, type Received } from './platform-basics.js';

/** The control-plane operations the platform answers. */
export type BedrockOperation =
  | 'Converse'
  | 'CreateModelInvocationJob'
  | 'GetModelInvocationJob'
  | 'ListModelInvocationJobs'
  | 'StopModelInvocationJob';

/** One control-plane request as received (refused ones too). */
export interface BedrockRequestRecord {
  operation: BedrockOperation | 'unknown';
  method: string;
  path: string;
  body: unknown;
  /** The access key in the SigV4 credential scope, when there was one. */
  accessKeyId?: string;
}

/** An error the next matching request gets (a test control: throttling, an internal error, a quota). */
export interface InjectedError {
  operation: BedrockOperation | '*';
  type: BedrockErrorType;
  message?: string;
}

export interface ControlPlaneState {
  runtime: ConverseContext;
  received: Received;
  region: string;
  accountId: string;
  credentials: BedrockCredentials;
  clock: Clock;
  batches: BedrockBatches;
  requests: BedrockRequestRecord[];
  injectedErrors: InjectedError[];
}

// Patterns from the CreateModelInvocationJob API reference.
const JOB_NAME = /^[a-zA-Z0-9]{1,63}(-*[a-zA-Z0-9+\-.]){0,63}$/;
const ROLE_ARN = /^arn:aws(-[^:]+)?:iam::([0-9]{12})?:role\/.+$/;
const TOKEN = /^[a-zA-Z0-9]{1,256}(-*[a-zA-Z0-9]){0,256}$/;
const MODEL_ID =
  /^(arn:aws(-[^:]+)?:bedrock:[a-z0-9-]{1,20}:(([0-9]{12}:custom-model\/[a-z0-9-]{1,63}[.]{1}[a-z0-9-:]{1,63}\/[a-z0-9]{12}$)|(:foundation-model\/[a-z0-9-]{1,63}[.]{1}[a-z0-9-]{1,63}$)))|([a-z0-9-]{1,63}[.]{1}[a-z0-9-]{1,63}([.]?[a-z0-9-]{1,63})([:][a-z0-9-]{1,63}){0,2})|(([0-9a-zA-Z][_-]?)+)$/;
const S3_URI = /^s3:\/\/[a-z0-9][.\-a-z0-9]{1,61}[a-z0-9](\/.*)?$/;

const pattern = (expression: RegExp) =>
  `Member must satisfy regular expression pattern: ${expression.source}`;

const createSchema = z.object({
  jobName: z.string().min(1).max(63).regex(JOB_NAME, pattern(JOB_NAME)),
  roleArn: z.string().max(2048).regex(ROLE_ARN, pattern(ROLE_ARN)),
  modelId: z.string().min(1).max(2048).regex(MODEL_ID, pattern(MODEL_ID)),
  clientRequestToken: z.string().min(1).max(256).regex(TOKEN, pattern(TOKEN)).optional(),
  modelInvocationType: z.enum(['InvokeModel', 'Converse']).optional(),
  inputDataConfig: z.object({
    s3InputDataConfig: z.object({
      s3Uri: z.string().regex(S3_URI, pattern(S3_URI)),
      s3InputFormat: z.literal('JSONL').optional(),
      s3BucketOwner: z.string().optional(),
    }),
  }),
  outputDataConfig: z.object({
    s3OutputDataConfig: z.object({
      s3Uri: z.string().regex(S3_URI, pattern(S3_URI)),
      s3EncryptionKeyId: z.string().optional(),
      s3BucketOwner: z.string().optional(),
    }),
  }),
  timeoutDurationInHours: z.number().int().min(24).max(168).optional(),
  tags: z
    .array(z.object({ key: z.string().min(1).max(128), value: z.string().max(256) }))
    .max(200)
    .optional(),
  vpcConfig: z.unknown().optional(),
});

const STATUSES = [
  'Submitted',
  'Validating',
  'Scheduled',
  'InProgress',
  'Stopping',
  'Stopped',
  'PartiallyCompleted',
  'Completed',
  'Failed',
  'Expired',
] as const;

const listSchema = z.object({
  maxResults: z.coerce.number().int().min(1).max(1000).optional(),
  nameContains: z.string().min(1).max(63).optional(),
  nextToken: z.string().min(1).max(2048).optional(),
  sortBy: z.literal('CreationTime').optional(),
  sortOrder: z.enum(['Ascending', 'Descending']).optional(),
  statusEquals: z.enum(STATUSES).optional(),
  submitTimeAfter: z.iso.datetime({ offset: true }).optional(),
  submitTimeBefore: z.iso.datetime({ offset: true }).optional(),
});

/** AWS's wording for a request that fails its constraints. */
function validationMessage(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `1 validation error detected: Value at '${issue.path.join('.')}' failed to satisfy constraint: ${issue.message}`;
}

function operationOf(exchange: Exchange): { operation: BedrockOperation | 'unknown'; identifier?: string } {
  const { method } = exchange;
  const path = exchange.url.pathname;
  if (method === 'POST' && path === '/model-invocation-job') return { operation: 'CreateModelInvocationJob' };
  if (method === 'GET' && path === '/model-invocation-jobs') return { operation: 'ListModelInvocationJobs' };
  const runtime = /^\/model\/([^/]+)\/converse$/.exec(path);
  if (method === 'POST' && runtime)
    return { operation: 'Converse', identifier: decodeURIComponent(runtime[1]!) };
  const match = /^\/model-invocation-job\/([^/]+)(\/stop)?$/.exec(path);
  if (!match) return { operation: 'unknown' };
  const identifier = decodeURIComponent(match[1]!);
  if (method === 'GET' && !match[2]) return { operation: 'GetModelInvocationJob', identifier };
  if (method === 'POST' && match[2]) return { operation: 'StopModelInvocationJob', identifier };
  return { operation: 'unknown' };
}

/** Records, authenticates and answers one control-plane request. */
export async function routeControlPlane(state: ControlPlaneState, exchange: Exchange): Promise<void> {
  const { operation, identifier } = operationOf(exchange);
  const credential = /Credential=([^/]+)\//.exec(String(exchange.headers.authorization ?? ''));
  state.requests.push({
    operation,
    method: exchange.method,
    path: `${exchange.url.pathname}${exchange.url.search}`,
    body: exchange.raw.length > 0 ? parseJson(exchange.raw) : undefined,
    ...(credential ? { accessKeyId: credential[1]! } : {}),
  });
  const refused = refuseUnsigned(exchange, state.credentials, state.region);
  if (refused) return sendBedrockError(exchange, refused.type, refused.message);
  if (operation === 'unknown') return sendBedrockError(exchange, 'UnknownOperationException');
  const injected = state.injectedErrors.findIndex((error) => [operation, '*'].includes(error.operation));
  if (injected >= 0) {
    const [error] = state.injectedErrors.splice(injected, 1);
    return sendBedrockError(exchange, error!.type, error!.message);
  }
  if (operation === 'CreateModelInvocationJob') return createJob(state, exchange);
  if (operation === 'ListModelInvocationJobs') return listJobs(state, exchange);
  if (operation === 'Converse') return runConverse(state, exchange, identifier!);
  const id = jobIdOf(identifier!);
  if (!id)
    return sendBedrockError(
      exchange,
      'ValidationException',
      `1 validation error detected: Value '${identifier}' at 'jobIdentifier' failed to satisfy constraint: Member must be a batch inference job ARN or id.`,
    );
  if (!state.batches.jobs.has(id))
    return sendBedrockError(
      exchange,
      'ResourceNotFoundException',
      `The batch inference job ${identifier} was not found.`,
    );
  if (operation === 'GetModelInvocationJob') {
    const job = await state.batches.poll(id);
    return sendBedrockJson(exchange, 200, jobDetails(state, job!));
  }
  return stopJob(state, exchange, id);
}

async function createJob(state: ControlPlaneState, exchange: Exchange): Promise<void> {
  const parsed = createSchema.safeParse(parseJson(exchange.raw));
  if (!parsed.success)
    return sendBedrockError(exchange, 'ValidationException', validationMessage(parsed.error));
  const request: BedrockJobRequest = parsed.data;
  const token = request.clientRequestToken;
  const same = [...state.batches.jobs.values()].find(
    (job) => token && job.request.clientRequestToken === token,
  );
  if (same) return sendBedrockJson(exchange, 200, { jobArn: same.arn });
  if (!isClaudeModel(request.modelId))
    return sendBedrockError(
      exchange,
      'ValidationException',
      `The provided model identifier is invalid: ${request.modelId} (this platform runs Anthropic Claude models).`,
    );
  const quota = state.batches.options.quotas.maxConcurrentJobs;
  if (state.batches.running() >= quota)
    return sendBedrockError(
      exchange,
      'ServiceQuotaExceededException',
      `The number of batch inference jobs in progress has reached the quota of ${quota}.`,
    );
  const loaded = state.batches.validateAt === 'create' ? await state.batches.load(request) : undefined;
  if (typeof loaded === 'string') return sendBedrockError(exchange, 'ValidationException', loaded);
  const id = newJobId();
  const job = state.batches.add({
    id,
    arn: jobArn(state.region, state.accountId, id),
    request,
    timeoutDurationInHours: request.timeoutDurationInHours ?? 24,
    submitTime: state.clock.now(),
    ...(loaded ? { records: loaded.records } : {}),
  });
  sendBedrockJson(exchange, 200, { jobArn: job.arn });
}

/** The runtime's Converse (POST /model/{modelId}/converse), billed at the on-demand price. */
function runConverse(state: ControlPlaneState, exchange: Exchange, modelId: string) {
  if (!isClaudeModel(modelId))
    return sendBedrockError(
      exchange,
      'ValidationException',
      `The provided model identifier is invalid: ${modelId} (this platform runs Anthropic Claude models).`,
    );
  state.received.syncRequests += 1;
  const answered = converse(state.runtime, modelId, parseJson(exchange.raw), { mode: 'sync' });
  if ('error' in answered) return sendBedrockError(exchange, answered.error.type, answered.error.message);
  sendBedrockJson(exchange, 200, answered.body);
}

async function stopJob(state: ControlPlaneState, exchange: Exchange, id: string): Promise<void> {
  const current = state.batches.job(id);
  if (ENDED_STATUSES.includes(current.status))
    return sendBedrockError(
      exchange,
      'ConflictException',
      `The batch inference job ${current.arn} has already ended (${current.status}) and cannot be stopped.`,
    );
  await state.batches.stop(id);
  sendBedrockJson(exchange, 200, {});
}

async function listJobs(state: ControlPlaneState, exchange: Exchange): Promise<void> {
  const parsed = listSchema.safeParse(Object.fromEntries(exchange.url.searchParams));
  if (!parsed.success)
    return sendBedrockError(exchange, 'ValidationException', validationMessage(parsed.error));
  const query = parsed.data;
  await state.batches.settleTimeouts();
  const after = query.submitTimeAfter ? Date.parse(query.submitTimeAfter) : Number.NEGATIVE_INFINITY;
  const before = query.submitTimeBefore ? Date.parse(query.submitTimeBefore) : Number.POSITIVE_INFINITY;
  const matching = [...state.batches.jobs.values()].filter(
    (job) =>
      (!query.nameContains || job.request.jobName.includes(query.nameContains)) &&
      (!query.statusEquals || job.status === query.statusEquals) &&
      job.submitTime > after &&
      job.submitTime < before,
  );
  // Insertion order is creation order; descending (newest first) unless asked otherwise.
  if ((query.sortOrder ?? 'Descending') === 'Descending') matching.reverse();
  const from = query.nextToken ? Number(Buffer.from(query.nextToken, 'base64url').toString('utf8')) : 0;
  if (!Number.isInteger(from) || from < 0)
    return sendBedrockError(exchange, 'ValidationException', 'The nextToken is not valid.');
  const size = query.maxResults ?? 1000;
  const page = matching.slice(from, from + size);
  const more = from + size < matching.length;
  sendBedrockJson(exchange, 200, {
    invocationJobSummaries: page.map((job) => jobDetails(state, job)),
    ...(more ? { nextToken: Buffer.from(String(from + size)).toString('base64url') } : {}),
  });
}

/** GetModelInvocationJob's fields (ModelInvocationJobSummary has the same), absent ones left out. */
export function jobDetails(state: ControlPlaneState, job: BedrockJob) {
  const results = [...job.results.values()];
  const details = {
    jobArn: job.arn,
    jobName: job.request.jobName,
    modelId: job.request.modelId,
    clientRequestToken: job.request.clientRequestToken,
    roleArn: job.request.roleArn,
    status: job.status,
    message: job.message,
    submitTime: isoTime(job.submitTime),
    lastModifiedTime: isoTime(job.lastModifiedTime),
    endTime: isoTime(job.endTime),
    inputDataConfig: job.request.inputDataConfig,
    outputDataConfig: job.request.outputDataConfig,
    vpcConfig: job.request.vpcConfig,
    timeoutDurationInHours: job.timeoutDurationInHours,
    jobExpirationTime: isoTime(state.batches.expirationTime(job)),
    modelInvocationType: job.request.modelInvocationType ?? 'InvokeModel',
    totalRecordCount: job.records?.length,
    processedRecordCount: job.records ? results.length : undefined,
    successRecordCount: job.records ? results.filter((result) => !result.error).length : undefined,
    errorRecordCount: job.records ? results.filter((result) => result.error).length : undefined,
  };
  return Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined));
}
