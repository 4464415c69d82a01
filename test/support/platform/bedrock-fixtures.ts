import {
  BedrockClient,
  CreateModelInvocationJobCommand,
  type CreateModelInvocationJobCommandInput,
  GetModelInvocationJobCommand,
} from '@aws-sdk/client-bedrock';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterEach } from 'vitest';
import {
  type BedrockPlatform,
  type BedrockPlatformOptions,
  startBedrockPlatform,
} from './bedrock-platform.js';
import { S3RVER_CREDENTIALS } from './bedrock-s3.js';
import { ManualClock } from './platform-basics.js';

/** Helpers for tests that drive a Bedrock platform with the AWS SDK clients. */
export const CLAUDE_MODEL = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
export const BATCH_ROLE = 'arn:aws:iam::123456789012:role/BedrockBatchInference';

/**
 * A `start(options)` for a test file: each test's platform (default: a ManualClock, every answer
 * "ok") is closed after the test.
 */
export function bedrockPlatformPerTest(): (options?: BedrockPlatformOptions) => Promise<BedrockPlatform> {
  let platform: BedrockPlatform | undefined;
  afterEach(async () => {
    await platform?.close();
    platform = undefined;
  });
  return async (options = {}) => {
    platform = await startBedrockPlatform({ clock: new ManualClock(), answer: () => 'ok', ...options });
    return platform;
  };
}

/** A Bedrock control-plane client for the platform (no retries, so a test sees each error once). */
export function bedrockClient(platform: BedrockPlatform, credentials = platform.credentials): BedrockClient {
  return new BedrockClient({ region: platform.region, endpoint: platform.url, credentials, maxAttempts: 1 });
}

/** An S3 client for the platform's S3 server, through the proxy that can cut a download. */
export function s3Client(platform: BedrockPlatform): S3Client {
  return new S3Client({
    region: 'us-east-1',
    endpoint: platform.s3.endpoint,
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    maxAttempts: 1,
  });
}

/** One input record: a Claude Messages body asking `question`. */
export function claudeRecord(
  recordId: string | undefined,
  question: string,
  extra: Record<string, unknown> = {},
) {
  return {
    ...(recordId === undefined ? {} : { recordId }),
    modelInput: {
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 64,
      messages: [{ role: 'user', content: question }],
      ...extra,
    },
  };
}

/** `count` records r0000, r0001, … asking "question 0", "question 1", … */
export function claudeRecords(count: number, prefix = 'r') {
  return Array.from({ length: count }, (_, index) =>
    claudeRecord(`${prefix}${String(index).padStart(4, '0')}`, `question ${index}`),
  );
}

/** Writes `lines` (objects, or raw strings) as a JSONL object in the platform's bucket. */
export async function putJsonl(platform: BedrockPlatform, key: string, lines: unknown[]): Promise<void> {
  const text = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');
  await platform.s3.put({ bucket: platform.bucket, key }, `${text}\n`);
}

/** A CreateModelInvocationJob input reading s3://bucket/in/batch.jsonl and writing under out/. */
export function jobInput(
  platform: BedrockPlatform,
  overrides: Partial<CreateModelInvocationJobCommandInput> = {},
): CreateModelInvocationJobCommandInput {
  return {
    jobName: 'medbench-run-1',
    roleArn: BATCH_ROLE,
    modelId: CLAUDE_MODEL,
    inputDataConfig: {
      s3InputDataConfig: { s3Uri: `s3://${platform.bucket}/in/batch.jsonl`, s3InputFormat: 'JSONL' },
    },
    outputDataConfig: { s3OutputDataConfig: { s3Uri: `s3://${platform.bucket}/out/` } },
    ...overrides,
  };
}

export async function createJob(
  platform: BedrockPlatform,
  overrides: Partial<CreateModelInvocationJobCommandInput> = {},
): Promise<string> {
  const created = await bedrockClient(platform).send(
    new CreateModelInvocationJobCommand(jobInput(platform, overrides)),
  );
  return created.jobArn!;
}

export const getJob = (platform: BedrockPlatform, jobIdentifier: string) =>
  bedrockClient(platform).send(new GetModelInvocationJobCommand({ jobIdentifier }));

/** The job id at the end of a job ARN. */
export const jobIdOfArn = (arn: string) => arn.split('/').at(-1)!;

/** An object's text, read through the platform's S3 endpoint. */
export async function readObject(platform: BedrockPlatform, key: string): Promise<string> {
  const object = await s3Client(platform).send(new GetObjectCommand({ Bucket: platform.bucket, Key: key }));
  return object.Body!.transformToString('utf8');
}

/** The parsed lines of a JSONL object. */
export async function readJsonl(
  platform: BedrockPlatform,
  key: string,
): Promise<Array<Record<string, unknown>>> {
  const text = await readObject(platform, key);
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The error a client call rejects with: its name and HTTP status. */
export async function rejection(
  call: Promise<unknown>,
): Promise<{ name: string; status?: number; message: string }> {
  try {
    await call;
  } catch (error) {
    const failure = error as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { name: failure.name, status: failure.$metadata?.httpStatusCode, message: failure.message };
  }
  throw new Error('the call did not fail');
}
