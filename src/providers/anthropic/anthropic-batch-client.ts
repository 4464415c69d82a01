import { z } from 'zod';
import type {
  BatchClient,
  BatchIdentity,
  BatchRequestLine,
  BatchResult,
  BatchStatus,
} from '../../core/batch-client.js';
import type { ChatRequest } from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { type BatchHttpAccess, batchCall, readResultLines } from '../batch-http.js';
import { messageAnswer, messageSchema } from './anthropic-message.js';

/** What the client reads of a Message Batch (Anthropic's Message Batches API reference). */
const messageBatchSchema = z.object({
  id: z.string(),
  processing_status: z.string(),
  created_at: z.string(),
  request_counts: z.object({
    processing: z.number(),
    succeeded: z.number(),
    errored: z.number(),
    canceled: z.number(),
    expired: z.number(),
  }),
  results_url: z.string().nullable().optional(),
  cancel_initiated_at: z.string().nullable().optional(),
});

const batchListSchema = z.object({
  data: z.array(messageBatchSchema),
  has_more: z.boolean().optional(),
  last_id: z.string().nullable().optional(),
});

/** One line of a batch's results (`.jsonl`): the request's custom id and its outcome. */
const resultLineSchema = z.object({
  custom_id: z.string(),
  result: z.object({
    type: z.string(),
    message: z.unknown().optional(),
    error: z.unknown().optional(),
  }),
});

/** How far before the recorded submit time a batch may say it was created (the two clocks differ). */
const CLOCK_SLACK_MS = 2 * 60_000;

/** The endpoint's routes, headers (key and `anthropic-version`) and Messages body builder. */
export interface AnthropicBatchAccess extends BatchHttpAccess {
  /** A request's `params`: the chat model's own Messages API body. */
  params(request: ChatRequest): Record<string, unknown>;
}

/**
 * Anthropic's Message Batches API: the requests go inline in the creating call (no file), the
 * results come as JSONL from `results_url`. A batch keeps no metadata of ours: a run killed
 * while creating one finds it by time and size (see `find`).
 */
export class AnthropicBatchClient implements BatchClient {
  readonly maxRequests = 100_000;
  /** Message Batches: at most 256 MB of requests in a batch. */
  readonly maxBytes = 256_000_000;

  constructor(private readonly access: AnthropicBatchAccess) {}

  private call<Schema extends z.ZodType>(url: string, schema: Schema, body?: unknown, signal?: AbortSignal) {
    return batchCall(this.access, { url, schema, body, signal });
  }

  async create(
    _batch: BatchIdentity,
    lines: readonly BatchRequestLine[],
    signal?: AbortSignal,
  ): Promise<string> {
    const requests = lines.map(({ customId, request }) => ({
      custom_id: customId,
      params: this.access.params(request),
    }));
    const created = await this.call(
      this.access.url('/v1/messages/batches'),
      messageBatchSchema,
      { requests },
      signal,
    );
    return created.id;
  }

  /**
   * A Message Batch carries no metadata, so the batch a killed run may have created is one made
   * after the submit time medbench recorded (less two minutes of clock slack) with as many requests as the
   * submission, not cancelled, not another submission's, and, once ended, answering only the
   * submission's custom ids: exactly one such is taken (a running one's results are checked
   * against the submission's custom ids when read); none means the create never arrived; more
   * than one is not guessed at.
   */
  async find(batch: BatchIdentity, signal?: AbortSignal): Promise<string | undefined> {
    const since = Date.parse(batch.submittedAt ?? '') - CLOCK_SLACK_MS;
    const matches: string[] = [];
    let after: string | undefined;
    for (;;) {
      const url = new URL(this.access.url('/v1/messages/batches'));
      url.searchParams.set('limit', '100');
      if (after) url.searchParams.set('after_id', after);
      const page = await this.call(url.toString(), batchListSchema, undefined, signal);
      for (const entry of page.data) {
        const counts = entry.request_counts;
        const size = counts.processing + counts.succeeded + counts.errored + counts.canceled + counts.expired;
        const recent = !(Date.parse(entry.created_at) < since);
        // A batch the user cancelled (as the refusal below asks) is not taken.
        const cancelled = Boolean(entry.cancel_initiated_at);
        if (recent && !cancelled && size === batch.size && !batch.claimed?.includes(entry.id))
          if (entry.processing_status !== 'ended' || (await this.answersOnly(entry.id, batch, signal)))
            matches.push(entry.id);
      }
      const last = page.last_id ?? page.data.at(-1)?.id;
      // Newest first: a page ending before the submit time ends the search.
      const older = page.data.some((entry) => Date.parse(entry.created_at) < since);
      if (!page.has_more || !last || older) break;
      after = last;
    }
    if (matches.length > 1)
      throw new MedbenchError({
        code: 'USAGE',
        message: `medbench's submission ${batch.localId} was being created when the run stopped, and Anthropic has ${matches.length} batches of its size made since (${matches.join(', ')}): a Message Batch carries no id of medbench's to tell which is this submission's.`,
        hint: "Cancel in the Anthropic console the batches still running that are not this run's, then re-run: the one left is taken, and its results are checked against the submission's requests (a batch that has ended is taken only when its results answer this submission's requests and no other).",
      });
    return matches[0];
  }

  /** Whether an ended batch's results answer only the submission's custom ids (another store's batch of the same size does not). */
  private async answersOnly(batchId: string, batch: BatchIdentity, signal?: AbortSignal): Promise<boolean> {
    if (!batch.customIds) return true;
    for await (const page of this.results(batchId, signal))
      if (page.some((result) => !batch.customIds?.has(result.customId))) return false;
    return true;
  }

  async status(batchId: string, signal?: AbortSignal): Promise<BatchStatus> {
    const batch = await this.call(
      this.access.url(`/v1/messages/batches/${encodeURIComponent(batchId)}`),
      messageBatchSchema,
      undefined,
      signal,
    );
    const counts = batch.request_counts;
    const failed = counts.errored + counts.canceled + counts.expired;
    return {
      state: batch.processing_status,
      // An ended batch has results for every request, canceled and expired ones included.
      phase: batch.processing_status === 'ended' ? 'ended' : 'running',
      counts: { done: counts.succeeded, failed, total: counts.processing + counts.succeeded + failed },
    };
  }

  async *results(batchId: string, signal?: AbortSignal): AsyncIterable<BatchResult[]> {
    const batch = await this.call(
      this.access.url(`/v1/messages/batches/${encodeURIComponent(batchId)}`),
      messageBatchSchema,
      undefined,
      signal,
    );
    if (!batch.results_url) return;
    const lines = await readResultLines(this.access, {
      url: batch.results_url,
      schema: resultLineSchema,
      where: `The results of ${batchId}`,
      signal,
    });
    yield lines.map(resultOf);
  }
}

/** One results line: the message, or why there is none. */
function resultOf(line: z.infer<typeof resultLineSchema>): BatchResult {
  const { custom_id: customId, result } = line;
  if (result.type !== 'succeeded') {
    const detail = z.object({ error: z.object({ message: z.string() }) }).safeParse(result.error);
    return { customId, error: `${result.type}${detail.success ? `: ${detail.data.error.message}` : ''}` };
  }
  const message = messageSchema.safeParse(result.message);
  if (!message.success) return { customId, error: 'its answer is not a Message' };
  return { customId, response: messageAnswer(message.data) };
}
