import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobIdOfArn, putJsonl, readJsonl } from '../../../test/support/platform/bedrock-fixtures.js';
import {
  type BedrockPlatform,
  startBedrockPlatform,
} from '../../../test/support/platform/bedrock-platform.js';
import { ManualClock } from '../../../test/support/platform/platform-basics.js';
import type { BatchClient, BatchRequestLine, BatchResult } from '../../core/batch-client.js';
import type { MedbenchError } from '../../core/errors.js';
import { BedrockChatModel } from './bedrock-chat-model.js';
import { claudeInvokeBody } from './bedrock-claude-body.js';

const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const ROLE = 'arn:aws:iam::123456789012:role/BedrockBatch';
let platform: BedrockPlatform;
const saved = { ...process.env };
beforeAll(() => {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
});
afterAll(() => {
  process.env = saved;
});
afterEach(async () => {
  await platform?.close();
});

async function start(): Promise<BatchClient> {
  platform = await startBedrockPlatform({
    clock: new ManualClock(),
    answer: (prompt) => `re: ${prompt.slice(-12)}`,
  });
  return client();
}

const client = (modelId = MODEL, batch: Record<string, string> = {}) =>
  new BedrockChatModel({
    modelId,
    region: 'us-east-1',
    batch: {
      s3Uri: `s3://${platform.bucket}/medbench/`,
      roleArn: ROLE,
      s3Endpoint: platform.s3.endpoint,
      controlURL: platform.url,
      ...batch,
    },
  }).batchClient();

/** `count` requests, each a custom id (64 hex characters) and a two-message conversation. */
function lines(count: number): BatchRequestLine[] {
  return Array.from({ length: count }, (_, index) => ({
    customId: createHash('sha256').update(String(index)).digest('hex'),
    request: {
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: `Question number ${index}?` },
      ],
      parameters: { temperature: 0, maxOutputTokens: 64 },
    },
  }));
}

async function allResults(batches: BatchClient, jobArn: string): Promise<(readonly BatchResult[])[]> {
  const pages: (readonly BatchResult[])[] = [];
  for await (const page of batches.results(jobArn)) pages.push(page);
  return pages;
}

/** Polls until the job leaves the running phase. */
async function settle(batches: BatchClient, jobArn: string) {
  for (let poll = 0; poll < 10; poll++) {
    const status = await batches.status(jobArn);
    if (status.phase !== 'running') return status;
  }
  throw new Error('the job did not end');
}

// Bedrock user guide, batch inference: input JSONL {recordId, modelInput} in S3;
// CreateModelInvocationJob {jobName, roleArn, clientRequestToken, modelId, inputDataConfig,
// outputDataConfig}; output <output uri>/<job id>/<input file>.out with modelOutput or error.
describe('BedrockBatchClient against the Bedrock platform (control plane and S3)', () => {
  it('uploads the records, creates the job on them, and reads every answer back by custom id', async () => {
    const batches = await start();
    const requests = lines(100);
    const identity = { localId: 'medbench-0b7e1a52-7d0e-4a43-9f11-2f3b8f1c9d21', size: 100 };
    const fileId = await batches.upload!(identity, requests);
    expect(fileId).toBe(`s3://${platform.bucket}/medbench/${identity.localId}.jsonl`);
    const uploaded = await readJsonl(platform, `medbench/${identity.localId}.jsonl`);
    expect(uploaded[7]).toEqual({
      recordId: requests[7]!.customId,
      modelInput: claudeInvokeBody(requests[7]!.request),
    });
    platform.batches.failRecords.set(requests[3]!.customId, { errorCode: 400, errorMessage: 'bad request' });
    // Bedrock does not keep the input's order in the output: answers are taken by record id.
    platform.batches.outputOrder = 'reversed';
    const jobArn = await batches.create({ ...identity, fileId }, []);
    const created = platform.requests.find((request) => request.operation === 'CreateModelInvocationJob');
    expect(created?.body).toEqual({
      jobName: identity.localId,
      clientRequestToken: identity.localId,
      modelId: MODEL,
      roleArn: ROLE,
      inputDataConfig: { s3InputDataConfig: { s3Uri: fileId, s3InputFormat: 'JSONL' } },
      outputDataConfig: { s3OutputDataConfig: { s3Uri: `s3://${platform.bucket}/medbench/output/` } },
    });
    expect(await settle(batches, jobArn)).toEqual({
      state: 'Completed',
      phase: 'ended',
      counts: { done: 99, failed: 1, total: 100 },
    });
    const results = (await allResults(batches, jobArn)).flat();
    expect(results).toHaveLength(100);
    const byId = new Map(results.map((result) => [result.customId, result]));
    expect(byId.get(requests[3]!.customId)).toEqual({
      customId: requests[3]!.customId,
      error: 'error 400: bad request',
    });
    const answered = byId.get(requests[7]!.customId) as Extract<BatchResult, { response: unknown }>;
    expect(answered.response.text).toBe('re: on number 7?');
    expect(answered.response.usage?.outputTokens).toBeGreaterThan(0);
    expect(answered.response.finishReason).toBe('end_turn');
  });

  it('a create sent again (a killed run resumed) returns the same job: the token makes it idempotent', async () => {
    const batches = await start();
    const identity = { localId: 'medbench-5d1f', size: 100 };
    const fileId = await batches.upload!(identity, lines(100));
    const first = await batches.create({ ...identity, fileId }, []);
    expect(await batches.create({ ...identity, fileId }, [])).toBe(first);
    expect(platform.received.batchesCreated).toBe(1);
    // find: by name, input file and token; another submission's name or input is not this one's.
    expect(await batches.find({ ...identity, fileId })).toBe(first);
    expect(await batches.find({ localId: 'medbench-5d1', size: 100, fileId })).toBeUndefined();
    expect(await batches.find({ ...identity, fileId: `${fileId}x` })).toBeUndefined();
  });

  it('reads output a page (1,000 lines or 256 KB) at a time, again whole after a cut download; a Stopped job is read for what it answered, Failed and Expired end without', async () => {
    const batches = await start();
    const identity = { localId: 'medbench-paged', size: 1500 };
    const fileId = await batches.upload!(identity, lines(1500));
    const jobArn = await batches.create({ ...identity, fileId }, []);
    await settle(batches, jobArn);
    const pages = (await allResults(batches, jobArn)).map((page) => page.length);
    expect(pages.length).toBeGreaterThan(1);
    expect(Math.max(...pages)).toBeLessThanOrEqual(1000);
    expect(pages.reduce((sum, length) => sum + length, 0)).toBe(1500);
    platform.cutNextDownload = true;
    const cut = await allResults(batches, jobArn).catch((caught: unknown) => caught);
    expect((cut as MedbenchError).retryable).toBe(true);
    expect((await allResults(batches, jobArn)).flat()).toHaveLength(1500);

    const stopped = { localId: 'medbench-stopped', size: 100 };
    const stoppedFile = await batches.upload!(stopped, lines(100));
    platform.batches.holdAt = 'InProgress';
    const stoppedArn = await batches.create({ ...stopped, fileId: stoppedFile }, []);
    for (let poll = 0; poll < 4; poll++) await batches.status(stoppedArn);
    platform.batches.process(jobIdOfArn(stoppedArn), 30);
    await platform.batches.stop(jobIdOfArn(stoppedArn));
    platform.batches.holdAt = undefined;
    expect(await settle(batches, stoppedArn)).toMatchObject({ state: 'Stopped', phase: 'ended' });
    expect((await allResults(batches, stoppedArn)).flat()).toHaveLength(30);

    const failed = { localId: 'medbench-failed', size: 100 };
    const failedArn = await batches.create(
      { ...failed, fileId: await batches.upload!(failed, lines(100)) },
      [],
    );
    await platform.batches.fail(jobIdOfArn(failedArn), 'The role cannot read the input.');
    expect(await batches.status(failedArn)).toMatchObject({
      state: 'Failed',
      phase: 'failed',
      reason: 'The role cannot read the input.',
    });
    const expired = { localId: 'medbench-expired', size: 100 };
    const expiredArn = await batches.create(
      { ...expired, fileId: await batches.upload!(expired, lines(100)) },
      [],
    );
    await platform.batches.expire(jobIdOfArn(expiredArn));
    expect(await batches.status(expiredArn)).toMatchObject({ state: 'Expired', phase: 'failed' });
  });

  it('a line of the output that is not a record is a retryable bad answer', async () => {
    const batches = await start();
    const identity = { localId: 'medbench-bad-line', size: 100 };
    const jobArn = await batches.create(
      { ...identity, fileId: await batches.upload!(identity, lines(100)) },
      [],
    );
    await settle(batches, jobArn);
    await putJsonl(platform, `medbench/output/${jobIdOfArn(jobArn)}/${identity.localId}.jsonl.out`, [
      '{"no": "record"}',
    ]);
    const error = await allResults(batches, jobArn).catch((caught: unknown) => caught);
    expect((error as MedbenchError).code).toBe('ENDPOINT_BAD_RESPONSE');
    expect((error as MedbenchError).retryable).toBe(true);
  });

  it('refuses another model family, and an endpoint without the batch settings, naming the fields', async () => {
    platform = await startBedrockPlatform({ clock: new ManualClock() });
    const nova = (() => {
      try {
        return client('amazon.nova-pro-v1:0');
      } catch (error) {
        return error;
      }
    })() as MedbenchError;
    expect([nova.code, nova.message]).toEqual([
      'USAGE',
      expect.stringContaining('takes Anthropic Claude models'),
    ]);
    const bare = (() => {
      try {
        return new BedrockChatModel({ modelId: MODEL, region: 'us-east-1' }).batchClient();
      } catch (error) {
        return error;
      }
    })() as MedbenchError;
    // No region: refused when the lifecycle asks the client ready, before it records anything.
    delete process.env.AWS_REGION;
    delete process.env.AWS_DEFAULT_REGION;
    const regionless = new BedrockChatModel({
      modelId: MODEL,
      batch: { s3Uri: 's3://b/p/', roleArn: ROLE },
    }).batchClient();
    await expect(regionless.ready?.()).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    expect(bare.code).toBe('USAGE');
    expect(bare.message).toContain('has no "batchS3Uri"');
    expect(bare.message).toContain('and no "batchRoleArn"');
    expect(bare.hint).toContain('Add "batchS3Uri" and "batchRoleArn" to the model\'s endpoint');
  });
});
