import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type {
  BatchClient,
  BatchIdentity,
  BatchRequestLine,
  BatchResult,
  BatchStatus,
} from '../../core/batch-client.js';
import type { ChatRequest } from '../../core/chat-model.js';
import { type BatchHttpAccess, batchCall, readResultLines } from '../batch-http.js';
import { postJson } from '../http-json.js';
import { batchLineFailure, batchOutputLineSchema } from './openai-batch-output.js';
import { chatCompletionAnswer, chatCompletionSchema } from './openai-chat-completion.js';

/** What the client reads of a batch object (OpenAI's Batch API reference, "The batch object"). */
const batchSchema = z.object({
  id: z.string(),
  status: z.string(),
  input_file_id: z.string().nullable().optional(),
  output_file_id: z.string().nullable().optional(),
  error_file_id: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  request_counts: z
    .object({ total: z.number(), completed: z.number(), failed: z.number() })
    .nullable()
    .optional(),
  errors: z
    .object({
      data: z
        .array(z.object({ message: z.string().optional() }))
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
});

const batchListSchema = z.object({
  data: z.array(batchSchema),
  has_more: z.boolean().optional(),
  last_id: z.string().nullable().optional(),
});

/** The states whose batch may still change; the others are final. */
const RUNNING = new Set(['validating', 'in_progress', 'finalizing', 'cancelling']);

/** Where and how the client reaches the API: the endpoint's routes, headers and body builder. */
export interface OpenAIBatchAccess extends BatchHttpAccess {
  /** The request as a batch line carries it: the line's `url` and the chat model's own body. */
  batchRequest(request: ChatRequest): { url: string; body: Record<string, unknown> };
  /** The lines' `url`, which the batch names as its endpoint (OpenAI: /v1/chat/completions; Azure: /chat/completions). */
  batchEndpoint(): string;
}

/**
 * OpenAI's Batch API (and Azure OpenAI's, which is the same on its resource's routes): the
 * requests as a JSONL file (`purpose: batch`), a batch on it with medbench's id in its metadata,
 * its status, and the output and error files read line by line.
 */
export class OpenAIBatchClient implements BatchClient {
  readonly maxRequests = 50_000;
  /** The Batch API: an input file of at most 200 MB (Azure the same). */
  readonly maxBytes = 200_000_000;

  constructor(private readonly access: OpenAIBatchAccess) {}

  private call<Schema extends z.ZodType>(route: string, schema: Schema, body: unknown, signal?: AbortSignal) {
    return batchCall(this.access, { url: this.access.url(route), schema, body, signal });
  }

  async upload(
    batch: BatchIdentity,
    lines: readonly BatchRequestLine[],
    signal?: AbortSignal,
  ): Promise<string> {
    const jsonl = lines
      .map(({ customId, request }) =>
        JSON.stringify({ custom_id: customId, method: 'POST', ...this.access.batchRequest(request) }),
      )
      .join('\n');
    const boundary = `medbench-${randomBytes(12).toString('hex')}`;
    const text = [
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${batch.localId}.jsonl"\r\nContent-Type: application/jsonl\r\n\r\n${jsonl}\n\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const file = await postJson({
      url: this.access.url('/files'),
      ...(await this.access.requestOptions()),
      body: undefined,
      rawBody: { contentType: `multipart/form-data; boundary=${boundary}`, text },
      schema: z.object({ id: z.string() }),
      ...(signal ? { signal } : {}),
    });
    return file.id;
  }

  async create(
    batch: BatchIdentity,
    _lines: readonly BatchRequestLine[],
    signal?: AbortSignal,
  ): Promise<string> {
    const created = await this.call(
      '/batches',
      batchSchema,
      {
        input_file_id: batch.fileId,
        endpoint: this.access.batchEndpoint(),
        completion_window: '24h',
        metadata: { medbench_batch: batch.localId },
      },
      signal,
    );
    return created.id;
  }

  /** The batch on this submission's file (or with its id in the metadata), newest first, by listing every page. */
  async find(batch: BatchIdentity, signal?: AbortSignal): Promise<string | undefined> {
    let after: string | undefined;
    for (;;) {
      const url = new URL(this.access.url('/batches'));
      url.searchParams.set('limit', '100');
      if (after) url.searchParams.set('after', after);
      const page = await batchCall(this.access, { url: url.toString(), schema: batchListSchema, signal });
      const found = page.data.find(
        (entry) =>
          (batch.fileId !== undefined && entry.input_file_id === batch.fileId) ||
          entry.metadata?.medbench_batch === batch.localId,
      );
      if (found) return found.id;
      const last = page.last_id ?? page.data.at(-1)?.id;
      if (!page.has_more || !last) return undefined;
      after = last;
    }
  }

  async status(batchId: string, signal?: AbortSignal): Promise<BatchStatus> {
    const batch = await this.call(`/batches/${encodeURIComponent(batchId)}`, batchSchema, undefined, signal);
    const counts = batch.request_counts;
    const withResults = Boolean(batch.output_file_id || batch.error_file_id);
    const reason = batch.errors?.data
      ?.map((error) => error.message)
      .filter(Boolean)
      .join('; ');
    return {
      state: batch.status,
      // An expired or cancelled batch keeps what it answered in its files.
      phase: RUNNING.has(batch.status)
        ? 'running'
        : batch.status === 'completed' || withResults
          ? 'ended'
          : 'failed',
      counts: {
        done: counts?.completed ?? 0,
        failed: counts?.failed ?? 0,
        total: counts?.total ?? 0,
      },
      ...(reason ? { reason } : {}),
    };
  }

  /** The output file's lines, then the error file's: a page each. */
  async *results(batchId: string, signal?: AbortSignal): AsyncIterable<BatchResult[]> {
    const batch = await this.call(`/batches/${encodeURIComponent(batchId)}`, batchSchema, undefined, signal);
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (!fileId) continue;
      const lines = await readResultLines(this.access, {
        url: this.access.url(`/files/${encodeURIComponent(fileId)}/content`),
        schema: batchOutputLineSchema,
        where: `The batch file ${fileId}`,
        signal,
      });
      yield lines.map(resultOf);
    }
  }
}

/** One output or error file line: its answer, or why it has none. */
function resultOf(line: z.infer<typeof batchOutputLineSchema>): BatchResult {
  const failure = batchLineFailure(line);
  if (failure) return { customId: line.custom_id, error: failure };
  const completion = chatCompletionSchema.safeParse(line.response?.body);
  if (!completion.success) return { customId: line.custom_id, error: 'its answer is not a chat completion' };
  return { customId: line.custom_id, response: chatCompletionAnswer(completion.data) };
}
