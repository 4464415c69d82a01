import type { BatchJob, GenerateContentConfig, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import type {
  BatchClient,
  BatchIdentity,
  BatchRequestLine,
  BatchResult,
  BatchStatus,
} from '../../core/batch-client.js';
import type { ChatRequest, ChatResponse } from '../../core/chat-model.js';

/** How the client reaches Gemini: the chat model's SDK calls, body builder and answer reader. */
export interface GeminiBatchAccess {
  modelId: string;
  /** One SDK call with the endpoint's fetch, signal and error mapping. */
  call<T>(
    signal: AbortSignal | undefined,
    send: (client: GoogleGenAI, config: BatchCallConfig) => Promise<T>,
  ): Promise<T>;
  /** The request's contents and config, as `generate` sends them. */
  content(request: ChatRequest): { contents: unknown; config: GenerateContentConfig };
  answer(response: GenerateContentResponse): ChatResponse;
}

/** What every SDK call takes: the endpoint's fetch (and API version), and a signal. */
export interface BatchCallConfig {
  httpOptions: { fetch: typeof fetch; apiVersion?: string };
  abortSignal?: AbortSignal;
}

/** Batch Mode is documented under v1beta (the SDK's default for the Gemini API is v1). */
export const inBeta = (config: BatchCallConfig): BatchCallConfig => ({
  ...config,
  httpOptions: { ...config.httpOptions, apiVersion: 'v1beta' },
});

const RUNNING = new Set([
  'JOB_STATE_QUEUED',
  'JOB_STATE_PENDING',
  'JOB_STATE_RUNNING',
  'JOB_STATE_CANCELLING',
]);

/**
 * Gemini's Batch Mode (the Gemini API, not Vertex AI): the requests inlined in the creating call,
 * each with its custom id as metadata `key`, the batch named by medbench's id (`displayName`,
 * which a killed run's search finds it by); the answers inlined in the finished batch.
 */
export class GeminiBatchClient implements BatchClient {
  /** Inlined requests: the create call's body stays under the documented 20 MB in practice. */
  readonly maxRequests = 1_000;
  /** Batch Mode, inlined requests: at most 20 MB in all. */
  readonly maxBytes = 20_000_000;

  constructor(private readonly access: GeminiBatchAccess) {}

  async create(
    batch: BatchIdentity,
    lines: readonly BatchRequestLine[],
    signal?: AbortSignal,
  ): Promise<string> {
    const created = await this.access.call(signal, (client, config) =>
      client.batches.create({
        model: this.access.modelId,
        src: lines.map(({ customId, request }) => ({
          ...this.access.content(request),
          metadata: { key: customId },
        })) as never,
        config: { ...inBeta(config), displayName: batch.localId },
      }),
    );
    return created.name ?? '';
  }

  async find(batch: BatchIdentity, signal?: AbortSignal): Promise<string | undefined> {
    const pager = await this.access.call(signal, (client, config) =>
      client.batches.list({ config: { ...inBeta(config), pageSize: 100 } }),
    );
    for await (const job of pager) if (job.displayName === batch.localId) return job.name;
    return undefined;
  }

  private get(name: string, signal?: AbortSignal): Promise<BatchJob> {
    return this.access.call(signal, (client, config) => client.batches.get({ name, config: inBeta(config) }));
  }

  async status(batchId: string, signal?: AbortSignal): Promise<BatchStatus> {
    const job = await this.get(batchId, signal);
    const state = job.state ?? 'JOB_STATE_UNSPECIFIED';
    const stats = job.completionStats;
    const done = Number(stats?.successfulCount ?? 0);
    const failed = Number(stats?.failedCount ?? 0);
    const answered = (job.dest?.inlinedResponses?.length ?? 0) > 0;
    return {
      state,
      // An expired or cancelled batch keeps the answers it inlined.
      phase: RUNNING.has(state)
        ? 'running'
        : state === 'JOB_STATE_SUCCEEDED' || answered
          ? 'ended'
          : 'failed',
      counts: { done, failed, total: done + failed + Number(stats?.incompleteCount ?? 0) },
      ...(job.error?.message ? { reason: job.error.message } : {}),
    };
  }

  async *results(batchId: string, signal?: AbortSignal): AsyncIterable<BatchResult[]> {
    const job = await this.get(batchId, signal);
    yield (job.dest?.inlinedResponses ?? []).flatMap((inlined): BatchResult[] => {
      const customId = inlined.metadata?.key;
      if (!customId) return [];
      if (inlined.error || !inlined.response)
        return [{ customId, error: inlined.error?.message ?? 'no response in the batch' }];
      return [{ customId, response: this.access.answer(inlined.response) }];
    });
  }
}
