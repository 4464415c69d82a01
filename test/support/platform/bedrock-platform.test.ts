import { StopModelInvocationJobCommand } from '@aws-sdk/client-bedrock';
import { describe, expect, it } from 'vitest';
import {
  bedrockClient,
  bedrockPlatformPerTest,
  CLAUDE_MODEL,
  claudeRecord,
  claudeRecords,
  createJob,
  getJob,
  jobIdOfArn,
  putJsonl,
  readJsonl,
  readObject,
  rejection,
} from './bedrock-fixtures.js';
import { ManualClock } from './platform-basics.js';

const start = bedrockPlatformPerTest();
const HOUR = 3_600_000;

describe('Bedrock platform: a batch inference job from S3 input to S3 output', () => {
  it('moves Submitted → Validating → Scheduled → InProgress → Completed and writes outputs and manifest', async () => {
    const bedrock = await start();
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(100));
    bedrock.batches.failRecords.set('r0003', { errorCode: 400, errorMessage: 'bad request' });
    const arn = await createJob(bedrock);
    expect(arn).toMatch(/^arn:aws:bedrock:us-east-1:123456789012:model-invocation-job\/[a-z0-9]{12}$/);
    const id = jobIdOfArn(arn);
    expect(bedrock.batches.jobs.get(id)?.status).toBe('Submitted');
    const statuses: string[] = [];
    for (let poll = 0; poll < 4; poll++) statuses.push(String((await getJob(bedrock, arn)).status));
    expect(statuses).toEqual(['Validating', 'Scheduled', 'InProgress', 'Completed']);
    const done = await getJob(bedrock, id);
    expect(done).toMatchObject({
      jobArn: arn,
      jobName: 'medbench-run-1',
      modelId: CLAUDE_MODEL,
      status: 'Completed',
      timeoutDurationInHours: 24,
      totalRecordCount: 100,
      processedRecordCount: 100,
      successRecordCount: 99,
      errorRecordCount: 1,
    });
    expect(done.submitTime?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(done.jobExpirationTime?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(done.endTime).toBeInstanceOf(Date);
    const lines = await readJsonl(bedrock, `out/${id}/batch.jsonl.out`);
    expect(lines).toHaveLength(100);
    expect(lines[0]).toEqual({
      recordId: 'r0000',
      modelInput: claudeRecords(1)[0]!.modelInput,
      modelOutput: {
        id: expect.stringMatching(/^msg_bdrk_/),
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        // "user: question 0" = 16 characters = 4 tokens; "ok" = 1 token.
        usage: { input_tokens: 4, output_tokens: 1 },
      },
    });
    expect(lines[3]).toMatchObject({
      recordId: 'r0003',
      error: { errorCode: 400, errorMessage: 'bad request' },
    });
    expect(lines[3]).not.toHaveProperty('modelOutput');
    // 10 prompts "user: question N" (4 tokens) and 90 "user: question NN" (17 characters = 5 tokens); r0003 not answered.
    expect(JSON.parse(await readObject(bedrock, `out/${id}/manifest.json.out`))).toEqual({
      totalRecordCount: 100,
      processedRecordCount: 100,
      successRecordCount: 99,
      errorRecordCount: 1,
      inputTokenCount: 9 * 4 + 90 * 5,
      outputTokenCount: 99,
    });
    // Batch at 50% of on-demand: (4 × $3 + 1 × $15) / 2 per million for r0000.
    expect(bedrock.ledger.entries).toHaveLength(99);
    expect(bedrock.ledger.entries[0]).toMatchObject({
      mode: 'batch',
      customId: 'r0000',
      model: CLAUDE_MODEL,
    });
    expect(bedrock.ledger.entries[0]!.cost).toBeCloseTo(13.5e-6, 12);
    expect(bedrock.received).toMatchObject({ batchesCreated: 1, files: 1, resultDownloads: 2 });
    expect(bedrock.received.batchLines.get('r0099')).toBe(1);
    expect(bedrock.requests.map((request) => request.operation)).toEqual([
      'CreateModelInvocationJob',
      ...Array(5).fill('GetModelInvocationJob'),
    ]);
    expect(bedrock.requests[0]).toMatchObject({ body: { jobName: 'medbench-run-1' }, accessKeyId: 'S3RVER' });
  });

  it('holds a job in a status, processes part of it, and counts what was processed', async () => {
    const bedrock = await start();
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(120));
    const arn = await createJob(bedrock);
    bedrock.batches.holdAt = 'InProgress';
    for (let poll = 0; poll < 5; poll++) await getJob(bedrock, arn);
    bedrock.batches.process(jobIdOfArn(arn), 30);
    expect(await getJob(bedrock, arn)).toMatchObject({ status: 'InProgress', processedRecordCount: 30 });
    await bedrock.batches.advance(jobIdOfArn(arn));
    expect(await getJob(bedrock, arn)).toMatchObject({ status: 'Completed', processedRecordCount: 120 });
  });

  it('returns the same job for the same clientRequestToken, a new one for another', async () => {
    const bedrock = await start();
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(100));
    const first = await createJob(bedrock, { clientRequestToken: 'medbench-token-1' });
    const again = await createJob(bedrock, { clientRequestToken: 'medbench-token-1', jobName: 'other' });
    const other = await createJob(bedrock, { clientRequestToken: 'medbench-token-2' });
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(bedrock.received.batchesCreated).toBe(2);
    expect(await getJob(bedrock, first)).toMatchObject({ clientRequestToken: 'medbench-token-1' });
  });

  it('reads every .jsonl file under a prefix and writes one .out per file (in any order); a record without recordId gets one', async () => {
    const bedrock = await start();
    await putJsonl(bedrock, 'in/run/a.jsonl', claudeRecords(60, 'a'));
    await putJsonl(bedrock, 'in/run/b.jsonl', [...claudeRecords(49, 'b'), claudeRecord(undefined, 'no id')]);
    await putJsonl(bedrock, 'in/run/notes.txt', ['not a record']);
    const arn = await createJob(bedrock, {
      inputDataConfig: { s3InputDataConfig: { s3Uri: `s3://${bedrock.bucket}/in/run/` } },
      outputDataConfig: { s3OutputDataConfig: { s3Uri: `s3://${bedrock.bucket}/results` } },
    });
    bedrock.batches.outputOrder = 'reversed';
    for (let poll = 0; poll < 4; poll++) await getJob(bedrock, arn);
    const id = jobIdOfArn(arn);
    const a = await readJsonl(bedrock, `results/${id}/a.jsonl.out`);
    expect([a.length, a[0]?.recordId, a.at(-1)?.recordId]).toEqual([60, 'a0059', 'a0000']);
    const b = await readJsonl(bedrock, `results/${id}/b.jsonl.out`);
    expect(b[0]).toMatchObject({ recordId: expect.stringMatching(/^[A-Z0-9]{11}$/), modelOutput: {} });
    expect(bedrock.received.files).toBe(2);
  });

  it('cuts the next S3 download once', async () => {
    const bedrock = await start();
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(100));
    bedrock.cutNextDownload = true;
    expect((await rejection(readObject(bedrock, 'in/batch.jsonl'))).name).not.toBe('');
    expect((await readObject(bedrock, 'in/batch.jsonl')).split('\n')).toHaveLength(101);
    expect(bedrock.s3.downloads).toEqual(['in/batch.jsonl', 'in/batch.jsonl']);
  });
});

describe('Bedrock platform: stop and timeout', () => {
  it('stops a job: Stopping, then Stopped with the processed records written; stopping it again conflicts', async () => {
    const bedrock = await start();
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(100));
    const arn = await createJob(bedrock);
    bedrock.batches.holdAt = 'InProgress';
    for (let poll = 0; poll < 3; poll++) await getJob(bedrock, arn);
    bedrock.batches.process(jobIdOfArn(arn), 5);
    const client = bedrockClient(bedrock);
    await client.send(new StopModelInvocationJobCommand({ jobIdentifier: arn }));
    expect(bedrock.batches.jobs.get(jobIdOfArn(arn))?.status).toBe('Stopping');
    expect(await getJob(bedrock, arn)).toMatchObject({ status: 'Stopped', processedRecordCount: 5 });
    const id = jobIdOfArn(arn);
    expect(await readJsonl(bedrock, `out/${id}/batch.jsonl.out`)).toHaveLength(5);
    const conflict = await rejection(client.send(new StopModelInvocationJobCommand({ jobIdentifier: id })));
    expect(conflict).toMatchObject({ name: 'ConflictException', status: 400 });
  });

  it('expires a job that did not begin within timeoutDurationInHours; one InProgress ends PartiallyCompleted', async () => {
    const clock = new ManualClock();
    const bedrock = await start({ clock });
    await putJsonl(bedrock, 'in/batch.jsonl', claudeRecords(100));
    const waiting = await createJob(bedrock);
    const running = await createJob(bedrock, { jobName: 'longer', timeoutDurationInHours: 48 });
    bedrock.batches.advanceOnPoll = false;
    for (let step = 0; step < 2; step++) await bedrock.batches.advance(jobIdOfArn(waiting));
    for (let step = 0; step < 3; step++) await bedrock.batches.advance(jobIdOfArn(running));
    bedrock.batches.process(jobIdOfArn(running), 30);
    clock.advance(24 * HOUR - 1);
    expect((await getJob(bedrock, waiting)).status).toBe('Scheduled');
    clock.advance(1);
    const expired = await getJob(bedrock, waiting);
    expect(expired).toMatchObject({ status: 'Expired' });
    expect(expired.endTime?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect((await getJob(bedrock, running)).status).toBe('InProgress');
    clock.advance(24 * HOUR);
    expect(await getJob(bedrock, running)).toMatchObject({
      status: 'PartiallyCompleted',
      processedRecordCount: 30,
      totalRecordCount: 100,
    });
    const manifest = JSON.parse(await readObject(bedrock, `out/${jobIdOfArn(running)}/manifest.json.out`));
    expect(manifest).toMatchObject({ totalRecordCount: 100, processedRecordCount: 30 });
  });
});
