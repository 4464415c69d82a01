import type { ChatModel, ChatRequest, ChatResponse } from './chat-model.js';

/** One request of a provider batch, by its custom id (the response cache key: 64 hex characters). */
export interface BatchRequestLine {
  customId: string;
  request: ChatRequest;
}

/** Where a provider batch stands, as the lifecycle reads it. */
export interface BatchStatus {
  /** The provider's own name of the state (`validating`, `in_progress`, `ended`, `JOB_STATE_RUNNING` …). */
  state: string;
  /** `running`: not done yet; `ended`: its results can be read; `failed`: it ended without results (failed, expired, cancelled with none). */
  phase: 'running' | 'ended' | 'failed';
  /** Requests answered, failed, and in all, where the provider counts them. */
  counts: { done: number; failed: number; total: number };
  /** Why a `failed` batch failed. */
  reason?: string;
}

/** One request's outcome in a finished batch: an answer, or why there is none. */
export type BatchResult = { customId: string; response: ChatResponse } | { customId: string; error: string };

/** The progress line of a batch being waited for (`RunHooks.onBatch`). */
export interface BatchProgress {
  /** medbench's id of the submission, and the provider's once known. */
  localId: string;
  batchId: string | undefined;
  /** The provider's state, or the lifecycle's step before there is one (`uploading`, `submitting`). */
  state: string;
  counts: BatchStatus['counts'];
  /** Since the batch was submitted (or prepared). */
  elapsedMs: number;
}

/** What the lifecycle recorded of a batch before a call, so that a client can find what a killed run made. */
export interface BatchIdentity {
  /** medbench's id of the submission (also the uploaded file's name and, where the provider keeps it, the batch's metadata). */
  localId: string;
  /** The uploaded file's id, once there is one. */
  fileId?: string;
  /** When the creating call was about to go out (ISO time). */
  submittedAt?: string;
  /** How many requests the batch holds. */
  size: number;
  /** Provider ids the store holds for other submissions of the model (never this one's batch). */
  claimed?: readonly string[];
  /** The custom ids the submission holds (given to `find`: a batch that answered another is not this one's). */
  customIds?: ReadonlySet<string>;
}

/**
 * A provider's batch API (OpenAI's and Azure's Batch API, Anthropic's Message Batches, Gemini's
 * batch mode), as a chat model offers it: half-price answers, hours later. The client makes no
 * decision: the lifecycle (src/compose/run-batches.ts) records each step before and after the
 * call, so that a run killed anywhere resumes the same batch and never creates a second one.
 */
export interface BatchClient {
  /** The most requests one batch may hold (OpenAI, Azure and Bedrock: 50,000; Anthropic: 100,000; Gemini, inlined: 1,000). */
  readonly maxRequests: number;
  /**
   * The fewest requests one batch may hold (Bedrock: 100, a documented minimum); absent: one. The
   * lifecycle never cuts a submission below it, and submits no fewer pending requests than that.
   */
  readonly minRequests?: number;
  /**
   * The most bytes one batch's input may hold (OpenAI and Azure: a 200 MB file; Anthropic: 256 MB
   * of requests; Gemini, inlined: 20 MB; Bedrock: a 1 GB file): the lifecycle cuts submissions below it.
   */
  readonly maxBytes: number;
  /**
   * Checks what the client needs before anything is recorded (packages to load, a region): the
   * lifecycle calls it first, so that a missing part fails with the store as it was.
   */
  ready?(signal?: AbortSignal): Promise<void>;
  /** Uploads the requests as a file: its id. Absent where the creating call carries them (Anthropic, Gemini). */
  upload?(batch: BatchIdentity, lines: readonly BatchRequestLine[], signal?: AbortSignal): Promise<string>;
  /** Creates the batch (the paid step): its provider id. `lines`: for a client without an upload. */
  create(batch: BatchIdentity, lines: readonly BatchRequestLine[], signal?: AbortSignal): Promise<string>;
  /**
   * The batch a killed run created for this submission (by its file, metadata or display name):
   * its id, undefined when there is none. Throws where the provider cannot tell (the user decides).
   */
  find(batch: BatchIdentity, signal?: AbortSignal): Promise<string | undefined>;
  status(batchId: string, signal?: AbortSignal): Promise<BatchStatus>;
  /**
   * Every request's outcome, a page at a time (a results file, a stretch of a stream): the
   * lifecycle keeps each page in one transaction, and a resumed read starts again from the first.
   */
  results(batchId: string, signal?: AbortSignal): AsyncIterable<readonly BatchResult[]>;
}

/** A chat model whose provider has a batch API (`medbench run --batch`). */
export interface BatchCapableChatModel extends ChatModel {
  /** Requests go in as `generate` would send them; answers come back as `generate` reads them. */
  batchClient(): BatchClient;
}

/** The model's batch API, where it has one. */
export function batchClientOf(model: ChatModel): BatchClient | undefined {
  const capable = model as Partial<BatchCapableChatModel>;
  return typeof capable.batchClient === 'function' ? capable.batchClient() : undefined;
}
