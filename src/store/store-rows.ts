import type { TokenUsage } from '../core/chat-model.js';
import type { ResultFields, RunRecord, StoredResult } from '../core/run-record.js';
import type { SampleStatus } from '../core/sample.js';
import { parseColumn } from './store-damage.js';

/** Rows as SQLite returns them, and their records. */

export interface ResultRow {
  run_id: string;
  sample_id: string;
  task: string;
  params_json: string;
  gold_json: string;
  prompt_hash: string | null;
  prompt_chars: number | null;
  prompt_tokens: number | null;
  status: SampleStatus;
  raw_output: string | null;
  parsed_json: string | null;
  scores_json: string;
  input_tokens: number | null;
  output_tokens: number | null;
  cost: number | null;
  latency_ms: number | null;
  attempts: number | null;
  cache_hit: number;
  error: string | null;
  created_at: string;
  redaction_json: string | null;
  reasoning_tokens: number | null;
  cached_input_tokens: number | null;
  cache_write_tokens: number | null;
  list_cost: number | null;
}

export interface RunRow {
  id: string;
  suite: string;
  label: string;
  dataset_id: string;
  dataset_path: string | null;
  model_json: string;
  parameters_json: string;
  source: 'medbench' | 'imported';
  scoring_mode: 'standard' | 'compat';
  created_at: string;
}

export function toRun(row: RunRow): RunRecord {
  return {
    id: row.id,
    suite: row.suite,
    label: row.label,
    datasetId: row.dataset_id,
    datasetPath: row.dataset_path,
    model: parseColumn(row.model_json, () => `runs.model_json of run ${row.id}`),
    parameters: parseColumn(row.parameters_json, () => `runs.parameters_json of run ${row.id}`),
    source: row.source,
    scoringMode: row.scoring_mode,
    createdAt: row.created_at,
  };
}

export function toResult(row: ResultRow): StoredResult {
  const json = <T>(column: keyof ResultRow & `${string}_json`, text: string): T =>
    parseColumn<T>(text, () => `results.${column} of run ${row.run_id}, sample ${row.sample_id}`);
  return {
    runId: row.run_id,
    sampleId: row.sample_id,
    task: row.task,
    params: json('params_json', row.params_json),
    gold: json('gold_json', row.gold_json),
    promptHash: row.prompt_hash,
    promptChars: row.prompt_chars,
    promptTokens: row.prompt_tokens,
    status: row.status,
    rawOutput: row.raw_output,
    parsed: row.parsed_json === null ? null : json('parsed_json', row.parsed_json),
    scores: json('scores_json', row.scores_json),
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    cost: row.cost,
    latencyMs: row.latency_ms,
    attempts: row.attempts,
    cacheHit: row.cache_hit === 1,
    error: row.error,
    createdAt: row.created_at,
    redaction: row.redaction_json === null ? null : json('redaction_json', row.redaction_json),
    reasoningTokens: row.reasoning_tokens,
    cachedInputTokens: row.cached_input_tokens,
    cacheWriteTokens: row.cache_write_tokens,
    listCost: row.list_cost,
  };
}

/** A cached model response (the response cache's row). */
export interface CachedResponse {
  text: string;
  inputTokens: number | null;
  outputTokens: number | null;
  /** Of the output tokens, those spent reasoning (absent: not reported). */
  reasoningTokens?: number | null;
  /** Of the input tokens, those read from the provider's prompt cache (absent: not reported). */
  cachedInputTokens?: number | null;
  /** Of the input tokens, those written to the provider's prompt cache (absent: not reported). */
  cacheWriteTokens?: number | null;
  finishReason: string | null;
}

/** The counts a provider reported apart (reasoning, cached, cache-written tokens): those it did not are left out. */
export function reportedCounts(
  usage: TokenUsage | undefined,
): Pick<CachedResponse, 'reasoningTokens' | 'cachedInputTokens' | 'cacheWriteTokens'> {
  return {
    ...(usage?.reasoningTokens !== undefined ? { reasoningTokens: usage.reasoningTokens } : {}),
    ...(usage?.cachedInputTokens !== undefined ? { cachedInputTokens: usage.cachedInputTokens } : {}),
    ...(usage?.cacheWriteTokens !== undefined ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
  };
}

/** A row of the response cache, as `getCachedResponse` reads it. */
export interface ResponseRow {
  text: string;
  input_tokens: number | null;
  output_tokens: number | null;
  reasoning_tokens: number | null;
  cached_input_tokens: number | null;
  cache_write_tokens: number | null;
  finish_reason: string | null;
}

/** A cached response's record: the counts a provider did not report are left out. */
export function toCachedResponse(row: ResponseRow): CachedResponse {
  return {
    text: row.text,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    ...(row.reasoning_tokens !== null ? { reasoningTokens: row.reasoning_tokens } : {}),
    ...(row.cached_input_tokens !== null ? { cachedInputTokens: row.cached_input_tokens } : {}),
    ...(row.cache_write_tokens !== null ? { cacheWriteTokens: row.cache_write_tokens } : {}),
    finishReason: row.finish_reason,
  };
}

/** A result's values in the column order of `results` (prompt stored apart, by its hash). */
export function resultRowValues(result: ResultFields, promptHash: string | null): unknown[] {
  return [
    result.runId,
    result.sampleId,
    result.task,
    JSON.stringify(result.params),
    JSON.stringify(result.gold),
    promptHash,
    result.promptChars,
    result.promptTokens,
    result.status,
    result.rawOutput,
    result.parsed === undefined ? null : JSON.stringify(result.parsed),
    JSON.stringify(result.scores),
    result.inputTokens,
    result.outputTokens,
    result.cost,
    result.latencyMs,
    result.attempts,
    result.cacheHit ? 1 : 0,
    result.error,
    new Date().toISOString(),
    result.redaction ? JSON.stringify(result.redaction) : null,
    result.reasoningTokens ?? null,
    result.cachedInputTokens ?? null,
    result.cacheWriteTokens ?? null,
    result.listCost ?? null,
  ];
}

/**
 * A JSON parser for the params and scores of result rows that keeps what it parsed: runs over one
 * dataset repeat the same strings. The parsed objects are shared between rows (read-only).
 */
export function internedJsonParser(
  cache: Map<string, Record<string, unknown>>,
): (text: string, runId: string, sampleId: string, column: string) => Record<string, unknown> {
  if (cache.size > 500_000) cache.clear();
  return (text, runId, sampleId, column) => {
    let value = cache.get(text);
    if (value === undefined) {
      value = parseColumn<Record<string, unknown>>(
        text,
        () => `results.${column} of run ${runId}, sample ${sampleId}`,
      );
      cache.set(text, value);
    }
    return value;
  };
}
