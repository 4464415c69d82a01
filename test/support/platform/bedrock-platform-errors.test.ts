import {
  CreateModelInvocationJobCommand,
  GetModelInvocationJobCommand,
  ListModelInvocationJobsCommand,
  type ListModelInvocationJobsCommandInput,
} from '@aws-sdk/client-bedrock';
import { describe, expect, it } from 'vitest';
import {
  bedrockClient,
  bedrockPlatformPerTest,
  claudeRecord,
  claudeRecords,
  createJob,
  getJob,
  jobIdOfArn,
  jobInput,
  putJsonl,
  readJsonl,
  rejection,
} from './bedrock-fixtures.js';
import type { BedrockPlatform } from './bedrock-platform.js';
import { ManualClock } from './platform-basics.js';
import { fetchJson } from './platform-fetch.js';

const start = bedrockPlatformPerTest();

const failedCreate = (bedrock: BedrockPlatform, overrides: Parameters<typeof jobInput>[1] = {}) =>
  rejection(bedrockClient(bedrock).send(new CreateModelInvocationJobCommand(jobInput(bedrock, overrides))));

describe('Bedrock platform: documented errors', () => {
  it('refuses a bad job name, role ARN, timeout or S3 URI with ValidationException (400)', async () => {
    const bedrock = await start();
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(100));
    for (const overrides of [
      { jobName: 'has space' },
      { jobName: 'x'.repeat(64) },
      { roleArn: 'arn:aws:iam::123456789012:user/someone' },
      { timeoutDurationInHours: 12 },
      { timeoutDurationInHours: 169 },
      { outputDataConfig: { s3OutputDataConfig: { s3Uri: 'https://bucket/out' } } },
    ]) {
      const failure = await failedCreate(bedrock, overrides);
      expect(failure, JSON.stringify(overrides)).toMatchObject({ name: 'ValidationException', status: 400 });
    }
    expect((await failedCreate(bedrock, { jobName: 'has space' })).message).toContain("Value at 'jobName'");
    expect(bedrock.batches.jobs.size).toBe(0);
  });

  it('validates the input: at least 100 records, JSON lines, unique recordIds, the per-file quota', async () => {
    const bedrock = await start({ quotas: { maxRecordsPerFile: 150 } });
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(99));
    expect((await failedCreate(bedrock)).message).toContain('fewer than the minimum of 100');
    await putJsonl(bedrock, 'in/batch.jsonl', [...claudeRecords(100), '{"recordId": "x", "modelInput":']);
    expect((await failedCreate(bedrock)).message).toContain('batch.jsonl line 101 is not valid JSON');
    await putJsonl(bedrock, 'in/batch.jsonl', [...claudeRecords(100), claudeRecord('r0007', 'again')]);
    expect((await failedCreate(bedrock)).message).toContain('recordId r0007 appears twice');
    await putJsonl(bedrock, 'in/batch.jsonl', [...claudeRecords(100), { recordId: 'no-input' }]);
    expect((await failedCreate(bedrock)).message).toContain('line 101: modelInput');
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(151));
    expect((await failedCreate(bedrock)).message).toContain(
      'more than the quota of 150 records per input file',
    );
    const missing = await failedCreate(bedrock, {
      inputDataConfig: { s3InputDataConfig: { s3Uri: `s3://${bedrock.bucket}/nothing/` } },
    });
    expect(missing).toMatchObject({
      name: 'ValidationException',
      message: expect.stringContaining('No .jsonl'),
    });
    expect(bedrock.batches.jobs.size).toBe(0);
  });

  it("with validateAt 'job', bad input is found while Validating: the job goes Failed with the problem", async () => {
    const bedrock = await start();
    bedrock.batches.validateAt = 'job';
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(10));
    const arn = await createJob(bedrock);
    await getJob(bedrock, arn);
    const failed = await getJob(bedrock, arn);
    expect(failed).toMatchObject({ status: 'Failed', message: expect.stringContaining('minimum of 100') });
    expect(failed.totalRecordCount).toBeUndefined();
  });

  it('fails a job whose output bucket does not exist, with the reason as its message', async () => {
    const bedrock = await start();
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(100));
    const arn = await createJob(bedrock, {
      outputDataConfig: { s3OutputDataConfig: { s3Uri: 's3://no-such-bucket/out/' } },
    });
    for (let poll = 0; poll < 4; poll++) await getJob(bedrock, arn);
    expect(await getJob(bedrock, arn)).toMatchObject({
      status: 'Failed',
      message: 'Unable to write the output to s3://no-such-bucket/out/: NoSuchBucket.',
    });
  });

  it('answers an unknown job 404 and a malformed job identifier 400', async () => {
    const bedrock = await start();
    const client = bedrockClient(bedrock);
    const unknown = await rejection(
      client.send(new GetModelInvocationJobCommand({ jobIdentifier: 'abcdef123456' })),
    );
    expect(unknown).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
    const malformed = await rejection(
      client.send(new GetModelInvocationJobCommand({ jobIdentifier: 'Not-An-Id' })),
    );
    expect(malformed).toMatchObject({ name: 'ValidationException', status: 400 });
  });

  it('checks the SigV4 signature: unsigned 403 AccessDenied, another key, another secret, another service', async () => {
    const bedrock = await start();
    const unsigned = await fetchJson(`${bedrock.url}/model-invocation-jobs`);
    expect(unsigned.status).toBe(403);
    expect(bedrock.requests.at(-1)?.operation).toBe('ListModelInvocationJobs');
    const list = (credentials: { accessKeyId: string; secretAccessKey: string }) =>
      rejection(bedrockClient(bedrock, credentials).send(new ListModelInvocationJobsCommand({})));
    expect(await list({ accessKeyId: 'AKIDOTHER', secretAccessKey: 'S3RVER' })).toMatchObject({
      name: 'UnrecognizedClientException',
      status: 403,
    });
    expect(await list({ accessKeyId: 'S3RVER', secretAccessKey: 'wrong' })).toMatchObject({
      name: 'InvalidSignatureException',
      status: 403,
    });
    const elsewhere = await rejection(
      bedrockClient({ ...bedrock, region: 'eu-west-1' }).send(new ListModelInvocationJobsCommand({})),
    );
    expect(elsewhere).toMatchObject({ name: 'InvalidSignatureException', status: 403 });
  });

  it('sends injected errors to the next matching request: throttling 429, internal 500, quota', async () => {
    const bedrock = await start({ quotas: { maxConcurrentJobs: 1 } });
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(100));
    bedrock.injectedErrors.push(
      { operation: 'CreateModelInvocationJob', type: 'ThrottlingException' },
      { operation: '*', type: 'InternalServerException' },
    );
    expect(await failedCreate(bedrock)).toMatchObject({ name: 'ThrottlingException', status: 429 });
    expect(await failedCreate(bedrock)).toMatchObject({ name: 'InternalServerException', status: 500 });
    const arn = await createJob(bedrock);
    const quota = await failedCreate(bedrock, { jobName: 'second' });
    expect(quota).toMatchObject({ name: 'ServiceQuotaExceededException', status: 400 });
    await bedrock.batches.fail(jobIdOfArn(arn), 'injected failure');
    expect(await getJob(bedrock, arn)).toMatchObject({ status: 'Failed', message: 'injected failure' });
    await createJob(bedrock, { jobName: 'second' });
  });
});

describe('Bedrock platform: listing and records', () => {
  it('lists with nameContains, statusEquals, submit times, sort order and nextToken pages', async () => {
    const clock = new ManualClock();
    const bedrock = await start({ clock });
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(100));
    const arns: string[] = [];
    for (const name of ['alpha-1', 'alpha-2', 'beta-1']) {
      arns.push(await createJob(bedrock, { jobName: name }));
      clock.advance(60_000);
    }
    await bedrock.batches.stop(jobIdOfArn(arns[0]!));
    await bedrock.batches.advance(jobIdOfArn(arns[0]!));
    const client = bedrockClient(bedrock);
    const list = async (input: ListModelInvocationJobsCommandInput) =>
      client.send(new ListModelInvocationJobsCommand(input));
    const names = (page: Awaited<ReturnType<typeof list>>) =>
      page.invocationJobSummaries?.map((summary) => summary.jobName);
    expect(names(await list({}))).toEqual(['beta-1', 'alpha-2', 'alpha-1']);
    expect(names(await list({ sortOrder: 'Ascending', nameContains: 'alpha' }))).toEqual([
      'alpha-1',
      'alpha-2',
    ]);
    expect(names(await list({ statusEquals: 'Stopped' }))).toEqual(['alpha-1']);
    expect(names(await list({ submitTimeAfter: new Date(Date.UTC(2026, 0, 1, 0, 0, 30)) }))).toEqual([
      'beta-1',
      'alpha-2',
    ]);
    const first = await list({ maxResults: 2 });
    expect(names(first)).toEqual(['beta-1', 'alpha-2']);
    const second = await list({ maxResults: 2, nextToken: first.nextToken });
    expect(names(second)).toEqual(['alpha-1']);
    expect(second.nextToken).toBeUndefined();
    expect(first.invocationJobSummaries?.[0]).toMatchObject({
      status: 'Submitted',
      roleArn: expect.any(String),
    });
    expect((await rejection(list({ maxResults: 1001 }))).name).toBe('ValidationException');
  });

  it('answers Claude bodies: stop_sequences, max_tokens, and a malformed body as a record error', async () => {
    const bedrock = await start({ answer: () => 'alpha beta STOP gamma' });
    await putJsonl(bedrock, 'in/batch.jsonl', [
      claudeRecord('stops', 'q', { stop_sequences: ['STOP'] }),
      claudeRecord('short', 'q', { max_tokens: 2 }),
      { recordId: 'broken', modelInput: { anthropic_version: 'bedrock-2023-05-31', messages: [] } },
      ...claudeRecords(97),
    ]);
    const arn = await createJob(bedrock);
    for (let poll = 0; poll < 4; poll++) await getJob(bedrock, arn);
    const lines = await readJsonl(bedrock, `out/${jobIdOfArn(arn)}/batch.jsonl.out`);
    const byId = new Map(lines.map((line) => [line.recordId, line]));
    expect(byId.get('stops')).toMatchObject({
      modelOutput: {
        content: [{ text: 'alpha beta ' }],
        stop_reason: 'stop_sequence',
        stop_sequence: 'STOP',
      },
    });
    // 2 tokens = 8 characters with the default counter.
    expect(byId.get('short')).toMatchObject({
      modelOutput: {
        content: [{ text: 'alpha be' }],
        stop_reason: 'max_tokens',
        usage: { output_tokens: 2 },
      },
    });
    expect(byId.get('broken')).toMatchObject({ error: { errorCode: 400 } });
    expect(await getJob(bedrock, arn)).toMatchObject({ status: 'Completed', errorRecordCount: 1 });
  });
});
