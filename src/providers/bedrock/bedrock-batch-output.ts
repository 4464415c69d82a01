import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { BatchResult } from '../../core/batch-client.js';
import { MedbenchError } from '../../core/errors.js';
import { messageAnswer, messageSchema } from '../anthropic/anthropic-message.js';
import { jsonOrUndefined } from '../batch-http.js';

/**
 * One line of a job's output file (`<input file>.out`, Bedrock's "View the results of a batch
 * inference job"): the record's id, its input, and `modelOutput` (the InvokeModel response body)
 * or, where inference failed, `error` in its place.
 */
const outputLineSchema = z.object({
  recordId: z.string(),
  modelOutput: z.unknown().optional(),
  error: z.unknown().optional(),
});

const errorSchema = z.object({
  errorCode: z.union([z.number(), z.string()]).optional(),
  errorMessage: z.string().optional(),
});

/** One output line as a result: the Claude message the record got, or why there is none. */
function resultOf(line: z.infer<typeof outputLineSchema>): BatchResult {
  const customId = line.recordId;
  if (line.modelOutput === undefined) {
    const error = errorSchema.safeParse(line.error);
    const detail = error.success
      ? [error.data.errorCode, error.data.errorMessage].filter(Boolean).join(': ')
      : '';
    return { customId, error: `error${detail ? ` ${detail}` : ''}` };
  }
  const message = messageSchema.safeParse(line.modelOutput);
  if (!message.success) return { customId, error: 'its modelOutput is not a Claude message' };
  return { customId, response: messageAnswer(message.data) };
}

/** A page of results: at most this many lines, or this many characters of them (a longer line alone). */
const PAGE_LINES = 1000;
const PAGE_CHARACTERS = 256 * 1024;

/**
 * An output file's results as it streams in, a page at a time (1,000 lines or 256 KB of them: each
 * line carries its whole prompt again, `modelInput`, so a page of long-context records is short);
 * a line that is not an output record is a bad answer naming `where` (retryable: the next read
 * may get it whole).
 */
export async function* outputPages(stream: Readable, where: string): AsyncIterable<BatchResult[]> {
  let page: BatchResult[] = [];
  let characters = 0;
  for await (const text of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (text.trim() === '') continue;
    const parsed = outputLineSchema.safeParse(jsonOrUndefined(text));
    if (!parsed.success)
      throw new MedbenchError({
        code: 'ENDPOINT_BAD_RESPONSE',
        message: `${where} has a line that is not a batch output record: ${text.slice(0, 120)}`,
        retryable: true,
      });
    page.push(resultOf(parsed.data));
    characters += text.length;
    if (page.length >= PAGE_LINES || characters >= PAGE_CHARACTERS) {
      yield page;
      page = [];
      characters = 0;
    }
  }
  if (page.length > 0) yield page;
}
