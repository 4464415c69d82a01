import { z } from 'zod';
import { messageRequestSchema, promptBlocks } from './anthropic-messages.js';
import type { BatchRecord, RecordResult } from './bedrock-records.js';
import { newId, type TokenCounter } from './platform-basics.js';
import { firstIssue, type PlatformSetup } from './platform-setup.js';

/**
 * Anthropic Claude's InvokeModel body on Bedrock (the Messages API without `model`, which the model
 * id names, and with `anthropic_version: "bedrock-2023-05-31"`).
 */
export const claudeBodySchema = messageRequestSchema.omit({ model: true }).extend({
  anthropic_version: z.literal('bedrock-2023-05-31'),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).optional(),
  stop_sequences: z.array(z.string().min(1)).optional(),
});

/** Whether a model id (a foundation model, an inference profile or its ARN) is an Anthropic Claude model. */
export function isClaudeModel(modelId: string): boolean {
  return /(^|[.:/])anthropic\.claude/.test(modelId);
}

/** The Anthropic model name a Bedrock model id carries: `us.anthropic.claude-x-20250101-v1:0` → `claude-x-20250101`. */
export function claudeModelName(modelId: string): string {
  const match = /anthropic\.(claude[^:/]*?)(-v\d+)?(:\d+)?$/.exec(modelId);
  return match?.[1] ?? modelId;
}

export const ERROR_MESSAGES: Record<number, string> = {
  400: 'Malformed input request, please reformat your input and try again.',
  408: 'Model has timed out in processing the request.',
  429: 'Too many requests, please wait before trying again.',
  500: 'The server encountered an internal error while processing the request.',
};

/** The longest start of `text` within `limit` tokens. */
function clip(text: string, limit: number, countTokens: TokenCounter): string {
  if (countTokens(text) <= limit) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (countTokens(text.slice(0, middle)) <= limit) low = middle;
    else high = middle - 1;
  }
  return text.slice(0, low);
}

/** The answer cut at the first stop sequence, then at the token limit, and why it stopped. */
export function finishAnswer(
  answer: string,
  limits: { stopSequences?: string[] | undefined; maxTokens?: number | undefined },
  countTokens: TokenCounter,
) {
  let text = answer;
  let stopSequence: string | null = null;
  for (const sequence of limits.stopSequences ?? []) {
    const at = text.indexOf(sequence);
    if (at >= 0) {
      text = text.slice(0, at);
      stopSequence = sequence;
    }
  }
  const clipped = limits.maxTokens === undefined ? text : clip(text, limits.maxTokens, countTokens);
  if (clipped !== text) return { text: clipped, stopReason: 'max_tokens', stopSequence: null };
  return { text, stopReason: stopSequence === null ? 'end_turn' : 'stop_sequence', stopSequence };
}

/**
 * Answers one batch record whose modelInput is a Claude InvokeModel body: the deterministic answer
 * function of the other platforms (the same prompt text as Anthropic's Messages API, so both answer
 * alike), billed at the batch price; a body that is not valid, or an answer `{ status }`, gives the
 * record an error in the output instead.
 */
export function answerClaudeRecord(
  context: Pick<PlatformSetup, 'answer' | 'countTokens' | 'ledger'>,
  modelId: string,
  record: BatchRecord,
): RecordResult {
  const failed = (errorCode: number, errorMessage: string): RecordResult => ({
    recordId: record.recordId,
    error: { errorCode, errorMessage },
    inputTokens: 0,
    outputTokens: 0,
  });
  const parsed = claudeBodySchema.safeParse(record.modelInput);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    return failed(400, `${ERROR_MESSAGES[400]} ${issue.path}: ${issue.message}`);
  }
  const body = parsed.data;
  const prompt = promptBlocks({ ...body, model: modelId })
    .map((block) => block.text)
    .join('');
  const answer = context.answer(prompt, record.modelInput);
  if (typeof answer !== 'string')
    return failed(answer.status, ERROR_MESSAGES[answer.status] ?? 'The model returned an error.');
  const { text, stopReason, stopSequence } = finishAnswer(
    answer,
    { stopSequences: body.stop_sequences, maxTokens: body.max_tokens },
    context.countTokens,
  );
  const inputTokens = context.countTokens(prompt);
  const outputTokens = context.countTokens(text);
  context.ledger.charge({ mode: 'batch', customId: record.recordId }, modelId, {
    promptTokens: inputTokens,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    outputTokens,
  });
  const modelOutput = {
    id: newId('msg_bdrk_'),
    type: 'message',
    role: 'assistant',
    model: claudeModelName(modelId),
    content: [{ type: 'text', text }],
    stop_reason: stopReason,
    stop_sequence: stopSequence,
    usage: { input_tokens: inputTokens, output_tokens: outputTokens },
  };
  return { recordId: record.recordId, modelOutput, inputTokens, outputTokens };
}
