import type { SampleParams, SampleScores, SampleStatus } from './sample.js';

/** One run: a dataset × a model identity × parameters, as the store keeps it. */
export interface RunRecord {
  id: string;
  suite: string;
  /** Display name of the model in reports. */
  label: string;
  datasetId: string;
  datasetPath: string | null;
  /** Model description without secrets: provider, model id, window, tokenizer, prices. */
  model: Record<string, unknown>;
  parameters: Record<string, unknown>;
  source: 'medbench' | 'imported';
  scoringMode: 'standard' | 'compat';
  createdAt: string;
}

/** Every column of a result except its prompt (stored apart, deduplicated by hash). */
/**
 * What a result kept of its text under `--redact`: SHA-256 hashes and lengths instead of the
 * prompt, the raw output (and the parsed answer drawn from it) and the gold.
 */
export interface Redaction {
  promptSha256: string | null;
  promptChars: number | null;
  outputSha256: string | null;
  outputChars: number | null;
  goldSha256: string;
}

/** One stored result: a sample of a run, its status, output and scores. */
export interface ResultFields {
  runId: string;
  sampleId: string;
  task: string;
  params: SampleParams;
  gold: unknown;
  promptChars: number | null;
  promptTokens: number | null;
  status: SampleStatus;
  rawOutput: string | null;
  parsed: unknown;
  scores: SampleScores;
  inputTokens: number | null;
  outputTokens: number | null;
  /** Of the output tokens, those a reasoning model spent thinking (null or absent: not reported). */
  reasoningTokens?: number | null;
  /** Of the input tokens, those the provider read from its prompt cache (null or absent: not reported). */
  cachedInputTokens?: number | null;
  /** Of the input tokens, those the provider wrote to its prompt cache (null or absent: not reported). */
  cacheWriteTokens?: number | null;
  /** What was paid: the answer at the model's prices, cache and batch discounts applied (null: no prices). */
  cost: number | null;
  /**
   * What the answer costs at list price: its input and output tokens at the input and output
   * prices, no cache or batch discount (null or absent: no prices, or stored before it was kept).
   */
  listCost?: number | null;
  latencyMs: number | null;
  attempts: number | null;
  cacheHit: boolean;
  error: string | null;
  /** Set when the run was redacted: then prompt, raw output, parsed answer and gold are not stored. */
  redaction?: Redaction | null;
}

/** A result as read back from the store. */
export type StoredResult = ResultFields & { promptHash: string | null; createdAt: string };

/** The light form of a result that aggregation needs: no gold, prompt or output. */
export interface ScoreRow {
  sampleId: string;
  task: string;
  params: SampleParams;
  status: SampleStatus;
  scores: SampleScores;
  promptChars: number | null;
  promptTokens: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cost: number | null;
}

/** A run with its results: what reports and leaderboards aggregate. */
export interface RunWithResults {
  run: RunRecord;
  results: readonly StoredResult[];
}
