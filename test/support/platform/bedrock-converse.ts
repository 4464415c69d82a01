import { z } from 'zod';
import { MAX_BREAKPOINTS, minimumCacheableTokens, promptBlocks } from './anthropic-messages.js';
import { claudeModelName, ERROR_MESSAGES, finishAnswer } from './bedrock-claude.js';
import type { BatchRecord, RecordResult } from './bedrock-records.js';
import { type BedrockErrorType, errorTypeOfStatus } from './bedrock-wire.js';
import { type Billing, firstIssue, type PlatformSetup } from './platform-setup.js';
import type { BreakpointCache } from './prefix-cache.js';

const cachePointSchema = z.object({ type: z.literal('default'), ttl: z.enum(['5m', '1h']).optional() });
const contentBlockSchema = z.looseObject({
  text: z.string().optional(),
  cachePoint: cachePointSchema.optional(),
});

/** The fields of a Converse request the platform reads (Bedrock runtime API reference). */
export const converseRequestSchema = z.looseObject({
  messages: z
    .array(z.object({ role: z.enum(['user', 'assistant']), content: z.array(contentBlockSchema).min(1) }))
    .min(1),
  system: z.array(contentBlockSchema).optional(),
  inferenceConfig: z
    .object({
      maxTokens: z.number().int().min(1).optional(),
      stopSequences: z.array(z.string().min(1)).max(4).optional(),
      temperature: z.number().min(0).max(1).optional(),
      topP: z.number().min(0).max(1).optional(),
    })
    .optional(),
  toolConfig: z
    .looseObject({
      tools: z
        .array(
          z.looseObject({
            toolSpec: z.looseObject({ name: z.string() }).optional(),
            cachePoint: cachePointSchema.optional(),
          }),
        )
        .min(1),
    })
    .optional(),
});

type ConverseRequest = z.infer<typeof converseRequestSchema>;
type CacheControl = { type: 'ephemeral'; ttl?: '5m' | '1h' };

/**
 * Converse content as Anthropic Messages blocks: a cachePoint block marks the block before it as a
 * breakpoint (cache_control), so the prompt text, its token counts and the cache rules are the
 * Anthropic platform's.
 */
function marked<B extends { cachePoint?: { ttl?: '5m' | '1h' | undefined } | undefined }, T extends object>(
  blocks: readonly B[],
  shape: (block: B) => T,
) {
  const out: Array<T & { cache_control?: CacheControl }> = [];
  for (const block of blocks) {
    if (block.cachePoint) {
      const last = out.at(-1);
      if (last)
        last.cache_control = {
          type: 'ephemeral',
          ...(block.cachePoint.ttl ? { ttl: block.cachePoint.ttl } : {}),
        };
    } else out.push(shape(block));
  }
  return out;
}

function text(block: { text?: string | undefined }) {
  return { type: 'text', text: block.text ?? JSON.stringify(block) };
}

function asMessagesRequest(modelId: string, request: ConverseRequest) {
  const tools = request.toolConfig
    ? marked(request.toolConfig.tools, (tool) => ({ ...tool.toolSpec! }))
    : undefined;
  return {
    model: modelId,
    max_tokens: request.inferenceConfig?.maxTokens ?? 4096,
    ...(request.system ? { system: marked(request.system, text) } : {}),
    messages: request.messages.map((message) => ({
      role: message.role,
      content: marked(message.content, text),
    })),
    ...(tools ? { tools } : {}),
  };
}

export interface ConverseContext extends Pick<PlatformSetup, 'answer' | 'countTokens' | 'ledger'> {
  cache: BreakpointCache;
}

export type ConverseAnswer =
  | { body: Record<string, unknown>; inputTokens: number; outputTokens: number }
  | { error: { type: BedrockErrorType; status: number; message: string } };

const refused = (type: BedrockErrorType, status: number, message: string): ConverseAnswer => ({
  error: { type, status, message },
});

/**
 * Answers one Converse request: at most 4 cachePoints, prompt caching at them (sync requests; the
 * per-model minimum, 5-minute or 1-hour lifetime) with usage cacheReadInputTokens /
 * cacheWriteInputTokens and inputTokens counting the rest, stopSequences and maxTokens applied, the
 * ledger billed.
 */
export function converse(
  context: ConverseContext,
  modelId: string,
  raw: unknown,
  billing: Billing,
): ConverseAnswer {
  const parsed = converseRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    return refused('ValidationException', 400, `${issue.path}: ${issue.message}`);
  }
  const request = parsed.data;
  const blocks = promptBlocks(asMessagesRequest(modelId, request) as Parameters<typeof promptBlocks>[0]);
  const points = blocks.filter((block) => block.breakpointTtlMs !== undefined).length;
  if (points > MAX_BREAKPOINTS)
    return refused(
      'ValidationException',
      400,
      `A request may have at most 4 cachePoint blocks; it has ${points}.`,
    );
  const prompt = blocks.map((block) => block.text).join('');
  const answer = context.answer(prompt, request);
  if (typeof answer !== 'string')
    return refused(errorTypeOfStatus(answer.status), answer.status, ERROR_MESSAGES[answer.status] ?? '');
  const usage =
    billing.mode === 'sync'
      ? context.cache.use(modelId, blocks, minimumCacheableTokens(claudeModelName(modelId)))
      : {
          totalTokens: context.countTokens(prompt),
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          cacheWriteHourTokens: 0,
        };
  const { stopSequences, maxTokens } = request.inferenceConfig ?? {};
  const finished = finishAnswer(answer, { stopSequences, maxTokens }, context.countTokens);
  const outputTokens = context.countTokens(finished.text);
  context.ledger.charge(billing, modelId, {
    promptTokens: usage.totalTokens,
    cachedInputTokens: usage.cacheReadTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    cacheWriteHourTokens: usage.cacheWriteHourTokens,
    outputTokens,
  });
  const body = {
    output: { message: { role: 'assistant', content: [{ text: finished.text }] } },
    stopReason: finished.stopReason,
    usage: {
      inputTokens: usage.totalTokens - usage.cacheReadTokens - usage.cacheWriteTokens,
      outputTokens,
      totalTokens: usage.totalTokens + outputTokens,
      cacheReadInputTokens: usage.cacheReadTokens,
      cacheWriteInputTokens: usage.cacheWriteTokens,
    },
    metrics: { latencyMs: 1 },
  };
  return { body, inputTokens: usage.totalTokens, outputTokens };
}

/** A record of a Converse-type batch job: its modelOutput is the Converse response body. */
export function answerConverseRecord(
  context: ConverseContext,
  modelId: string,
  record: BatchRecord,
): RecordResult {
  const answered = converse(context, modelId, record.modelInput, {
    mode: 'batch',
    customId: record.recordId,
  });
  if ('error' in answered)
    return {
      recordId: record.recordId,
      error: { errorCode: answered.error.status, errorMessage: answered.error.message },
      inputTokens: 0,
      outputTokens: 0,
    };
  const { body, inputTokens, outputTokens } = answered;
  return { recordId: record.recordId, modelOutput: body, inputTokens, outputTokens };
}
