import { z } from 'zod';
import { newId } from './platform-basics.js';
import { type Answered, type Billing, errorBody, type PlatformSetup, parseBody } from './platform-setup.js';
import type { BreakpointCache, PromptBlock } from './prefix-cache.js';

const cacheControlSchema = z.object({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });
const blockSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  cache_control: cacheControlSchema.nullish(),
});

/** The fields of a Messages API request the platform reads. */
export const messageRequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(['user', 'assistant']),
        content: z.union([z.string(), z.array(blockSchema)]),
      }),
    )
    .min(1),
  system: z.union([z.string(), z.array(blockSchema)]).optional(),
  tools: z.array(z.looseObject({ name: z.string(), cache_control: cacheControlSchema.nullish() })).optional(),
});

type MessageRequest = z.infer<typeof messageRequestSchema>;
type CacheControl = z.infer<typeof cacheControlSchema>;

/** Most cache_control blocks one request may carry. */
export const MAX_BREAKPOINTS = 4;

const TTL_MS = { '5m': 5 * 60_000, '1h': 3_600_000 } as const;

/**
 * The minimum cacheable prompt length for a model (prompt-caching guide): 4096 tokens for Claude
 * Haiku 4.5 and Opus 4.5/4.6, 2048 for the older Haiku models, 1024 for Sonnet and the other Opus.
 */
export function minimumCacheableTokens(model: string): number {
  if (/haiku-4-5|opus-4-[56]/.test(model)) return 4096;
  if (/haiku/.test(model)) return 2048;
  return 1024;
}

function block(text: string, cacheControl: CacheControl | null | undefined): PromptBlock {
  return cacheControl ? { text, breakpointTtlMs: TTL_MS[cacheControl.ttl ?? '5m'] } : { text };
}

/**
 * One turn's content blocks: the model reads a turn's text blocks as one text (the role once before
 * it; a line break between turns), so a message sent as one string and the same text cut into
 * blocks read, count and answer alike.
 */
function turn(
  role: string,
  parts: ReadonlyArray<{ text: string; cacheControl: CacheControl | null | undefined }>,
): Array<{ text: string; cacheControl: CacheControl | null | undefined }> {
  return parts.map((part, index) => ({ ...part, text: `${index === 0 ? `${role}: ` : ''}${part.text}` }));
}

/** The prompt's blocks in the order the cache reads them: tools, system, then messages. */
export function promptBlocks(request: MessageRequest): PromptBlock[] {
  const tools = (request.tools ?? []).map(({ cache_control, ...tool }) =>
    turn('tool', [{ text: JSON.stringify(tool), cacheControl: cache_control }]),
  );
  const system =
    typeof request.system === 'string'
      ? [turn('system', [{ text: request.system, cacheControl: undefined }])]
      : request.system
        ? [
            turn(
              'system',
              request.system.map((part) => ({ text: part.text ?? '', cacheControl: part.cache_control })),
            ),
          ]
        : [];
  const messages = request.messages.map((message) =>
    typeof message.content === 'string'
      ? turn(message.role, [{ text: message.content, cacheControl: undefined }])
      : turn(
          message.role,
          message.content.map((part) => ({
            text: part.text ?? JSON.stringify(part),
            cacheControl: part.cache_control,
          })),
        ),
  );
  // A line break between turns, at the start of the next one: a block's text never depends on
  // whether a turn follows it.
  return [...tools, ...system, ...messages].flatMap((parts, index) =>
    parts.map((part, at) => block(`${index > 0 && at === 0 ? '\n' : ''}${part.text}`, part.cacheControl)),
  );
}

export function anthropicError(status: number, message?: string) {
  return errorBody('anthropic', status, 500, { message });
}

export interface MessagesContext extends Omit<PlatformSetup, 'clock' | 'received'> {
  cache: BreakpointCache;
  minimumTokens: (model: string) => number;
}

/**
 * Answers one Messages request (sync, or a batch request's params): checks the breakpoints, reads
 * and writes the prompt cache, bills the ledger, and returns the status and body the API would.
 * usage.input_tokens counts only the tokens after the last cache read or write, as documented.
 */
export function createMessage(context: MessagesContext, raw: unknown, billing: Billing): Answered {
  const checked = parseBody(messageRequestSchema, raw);
  if (checked.issue)
    return { status: 400, body: anthropicError(400, `${checked.issue.path}: ${checked.issue.message}`) };
  const request = checked.value;
  const blocks = promptBlocks(request);
  const breakpoints = blocks.filter((entry) => entry.breakpointTtlMs !== undefined).length;
  if (breakpoints > MAX_BREAKPOINTS)
    return {
      status: 400,
      body: anthropicError(
        400,
        `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`,
      ),
    };
  const lifetimes = blocks.flatMap((entry) =>
    entry.breakpointTtlMs !== undefined ? [entry.breakpointTtlMs] : [],
  );
  if (lifetimes.some((lifetime, index) => index > 0 && lifetime > lifetimes[index - 1]!))
    return {
      status: 400,
      body: anthropicError(400, 'A cache_control block with ttl "1h" must not come after one with ttl "5m".'),
    };
  const prompt = blocks.map((entry) => entry.text).join('');
  const answer = context.answer(prompt, request);
  if (typeof answer !== 'string') return { status: answer.status, body: anthropicError(answer.status) };
  const usage = context.cache.use(request.model, blocks, context.minimumTokens(request.model));
  const outputTokens = context.countTokens(answer);
  context.ledger.charge(billing, request.model, {
    promptTokens: usage.totalTokens,
    cachedInputTokens: usage.cacheReadTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    cacheWriteHourTokens: usage.cacheWriteHourTokens,
    outputTokens,
  });
  return {
    status: 200,
    body: {
      id: newId('msg_'),
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: [{ type: 'text', text: answer }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: usage.totalTokens - usage.cacheReadTokens - usage.cacheWriteTokens,
        cache_creation_input_tokens: usage.cacheWriteTokens,
        cache_read_input_tokens: usage.cacheReadTokens,
        cache_creation: {
          ephemeral_5m_input_tokens: usage.cacheWriteTokens - usage.cacheWriteHourTokens,
          ephemeral_1h_input_tokens: usage.cacheWriteHourTokens,
        },
        output_tokens: outputTokens,
        service_tier: billing.mode === 'batch' ? 'batch' : 'standard',
      },
    },
  };
}
