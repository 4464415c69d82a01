import {
  BedrockRuntimeClient,
  ConverseCommand,
  type ConverseCommandInput,
  type Message,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { describe, expect, it } from 'vitest';
import {
  bedrockPlatformPerTest,
  CLAUDE_MODEL,
  createJob,
  getJob,
  jobIdOfArn,
  putJsonl,
  readJsonl,
  rejection,
} from './bedrock-fixtures.js';
import type { BedrockPlatform } from './bedrock-platform.js';
import { ManualClock } from './platform-basics.js';

const start = bedrockPlatformPerTest();

/** "system: " + 7992 characters = 8000 characters = 2000 tokens (the default counter). */
const SYSTEM = 's'.repeat(8000 - 'system: '.length);

/** The runtime client speaks HTTP/2 by default; the platform (like the other platforms) speaks HTTP/1.1. */
const runtime = (platform: BedrockPlatform) =>
  new BedrockRuntimeClient({
    requestHandler: new NodeHttpHandler(),
    region: platform.region,
    endpoint: platform.url,
    credentials: platform.credentials,
    maxAttempts: 1,
  });

const question = (text: string): Message[] => [{ role: 'user', content: [{ text }] }];

function cachedSystem(text: string, extra: Partial<ConverseCommandInput> = {}): ConverseCommandInput {
  return {
    modelId: CLAUDE_MODEL,
    system: [{ text: SYSTEM }, { cachePoint: { type: 'default' } }],
    // "\nuser: question 1" = 17 characters = 5 tokens after the system prompt.
    messages: question(text),
    ...extra,
  };
}

describe('Bedrock platform: the Converse runtime with cachePoint caching', () => {
  it('writes the prefix at a cachePoint, reads it next time, and bills both at the on-demand price', async () => {
    const bedrock = await start();
    const client = runtime(bedrock);
    const first = await client.send(new ConverseCommand(cachedSystem('question 1')));
    expect(first.output?.message?.content).toEqual([{ text: 'ok' }]);
    expect(first.stopReason).toBe('end_turn');
    expect(first.usage).toMatchObject({
      inputTokens: 5,
      outputTokens: 1,
      totalTokens: 2006,
      cacheWriteInputTokens: 2000,
      cacheReadInputTokens: 0,
    });
    const second = await client.send(new ConverseCommand(cachedSystem('question 2')));
    expect(second.usage).toMatchObject({
      inputTokens: 5,
      cacheReadInputTokens: 2000,
      cacheWriteInputTokens: 0,
    });
    // $3/M input, $3.75/M cache write, $0.30/M cache read, $15/M output.
    expect(bedrock.ledger.entries.map((entry) => [entry.mode, Math.round(entry.cost * 1e6)])).toEqual([
      ['sync', 7530],
      ['sync', 630],
    ]);
    expect(bedrock.received.syncRequests).toBe(2);
    expect(bedrock.requests.map((request) => request.operation)).toEqual(['Converse', 'Converse']);
  });

  it('writes a 1-hour cachePoint at its own price and keeps it past five minutes', async () => {
    const clock = new ManualClock();
    const bedrock = await start({ clock });
    const client = runtime(bedrock);
    const hour = {
      system: [{ text: SYSTEM }, { cachePoint: { type: 'default' as const, ttl: '1h' as const } }],
    };
    await client.send(new ConverseCommand(cachedSystem('a', hour)));
    clock.advance(30 * 60_000);
    const later = await client.send(new ConverseCommand(cachedSystem('b', hour)));
    expect(later.usage).toMatchObject({ cacheReadInputTokens: 2000, cacheWriteInputTokens: 0 });
    // "\nuser: a" = 8 characters = 2 tokens: 2·$3 + 2000·$6 + $15, then 2·$3 + 2000·$0.30 + $15 (per million).
    expect(bedrock.ledger.entries.map((entry) => Math.round(entry.cost * 1e6))).toEqual([12021, 621]);
  });

  it('keeps an entry five minutes from its last use; caches nothing under the model minimum', async () => {
    const clock = new ManualClock();
    const bedrock = await start({ clock });
    const client = runtime(bedrock);
    await client.send(new ConverseCommand(cachedSystem('a')));
    clock.advance(5 * 60_000 + 1);
    const late = await client.send(new ConverseCommand(cachedSystem('b')));
    expect(late.usage).toMatchObject({ cacheReadInputTokens: 0, cacheWriteInputTokens: 2000 });
    const short = { system: [{ text: 'short' }, { cachePoint: { type: 'default' as const } }] };
    await client.send(new ConverseCommand(cachedSystem('c', short)));
    const again = await client.send(new ConverseCommand(cachedSystem('c', short)));
    expect(again.usage).toMatchObject({ cacheReadInputTokens: 0, cacheWriteInputTokens: 0 });
  });

  it('applies stopSequences and maxTokens; refuses a fifth cachePoint, a model it does not run, and passes answer errors on', async () => {
    const bedrock = await start({
      answer: (prompt) => (prompt.includes('busy') ? { status: 429 } : 'one two STOP three'),
    });
    const client = runtime(bedrock);
    const stopped = await client.send(
      new ConverseCommand(cachedSystem('q', { inferenceConfig: { stopSequences: ['STOP'] } })),
    );
    expect([stopped.output?.message?.content?.[0]?.text, stopped.stopReason]).toEqual([
      'one two ',
      'stop_sequence',
    ]);
    const clipped = await client.send(
      new ConverseCommand(cachedSystem('q', { inferenceConfig: { maxTokens: 1 } })),
    );
    expect([clipped.output?.message?.content?.[0]?.text, clipped.stopReason]).toEqual(['one ', 'max_tokens']);
    const points = Array.from({ length: 5 }, (_, index) => [
      { text: `part ${index}` },
      { cachePoint: { type: 'default' } },
    ]);
    const five = await rejection(
      client.send(
        new ConverseCommand({
          modelId: CLAUDE_MODEL,
          messages: [{ role: 'user', content: points.flat() as never }],
        }),
      ),
    );
    expect(five).toMatchObject({ name: 'ValidationException', status: 400 });
    const titan = await rejection(
      client.send(new ConverseCommand({ ...cachedSystem('q'), modelId: 'amazon.titan-text-express-v1' })),
    );
    expect(titan).toMatchObject({ name: 'ValidationException', status: 400 });
    const busy = await rejection(client.send(new ConverseCommand(cachedSystem('busy'))));
    expect(busy).toMatchObject({ name: 'ThrottlingException', status: 429 });
  });
});

describe('Bedrock platform: Converse-type batch jobs', () => {
  it('answers Converse bodies with Converse responses at the batch price, without the prompt cache', async () => {
    const bedrock = await start();
    const records = Array.from({ length: 100 }, (_, index) => ({
      recordId: `c${index}`,
      modelInput: { system: cachedSystem('').system, messages: question(`question ${index}`) },
    }));
    await putJsonl(bedrock, 'in/batch.jsonl', records);
    const arn = await createJob(bedrock, { modelInvocationType: 'Converse' });
    for (let poll = 0; poll < 4; poll++) await getJob(bedrock, arn);
    expect(await getJob(bedrock, arn)).toMatchObject({
      status: 'Completed',
      modelInvocationType: 'Converse',
    });
    const [line] = await readJsonl(bedrock, `out/${jobIdOfArn(arn)}/batch.jsonl.out`);
    expect(line).toMatchObject({
      recordId: 'c0',
      modelOutput: {
        output: { message: { role: 'assistant', content: [{ text: 'ok' }] } },
        stopReason: 'end_turn',
        // 8000 characters of system + "\nuser: question 0" (17) = 2005 tokens, none cached.
        usage: { inputTokens: 2005, outputTokens: 1, cacheReadInputTokens: 0, cacheWriteInputTokens: 0 },
      },
    });
    expect(bedrock.ledger.entries[0]).toMatchObject({ mode: 'batch', customId: 'c0', cachedInputTokens: 0 });
    // (2005 × $3 + 1 × $15) / 2 per million.
    expect(bedrock.ledger.entries[0]!.cost).toBeCloseTo(3015e-6, 12);
  });
});
