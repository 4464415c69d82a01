import type { ResultFields } from '../core/run-record.js';
import type { Sample, SampleScores, SampleStatus } from '../core/sample.js';
import { NO_MODEL_CALL, type ResultRecord } from '../store/store.js';

/** What a result keeps of its sample. */
export type ResultSample = Pick<Sample, 'id' | 'task' | 'params' | 'gold'> & { promptChars: number | null };

/** What became of a sample: its status, the raw output, the parsed answer and the scores. */
export interface Outcome {
  status: SampleStatus;
  rawOutput: string | null;
  parsed: unknown;
  scores: SampleScores;
}

/** The cost of an outcome: tokens, money, time, attempts; a computed one made no model call. */
export type Usage = Pick<
  ResultFields,
  | 'inputTokens'
  | 'outputTokens'
  | 'reasoningTokens'
  | 'cachedInputTokens'
  | 'cacheWriteTokens'
  | 'cost'
  | 'listCost'
  | 'latencyMs'
  | 'attempts'
  | 'cacheHit'
  | 'error'
>;

/**
 * The one map from a sample and its outcome to a result row, for model runs, baselines,
 * retrievers and imports alike.
 */
export function resultRecord(options: {
  runId: string;
  sample: ResultSample;
  prompt: ResultRecord['prompt'];
  promptTokens: number | null;
  outcome: Outcome;
  usage?: Usage;
}): ResultRecord {
  const { sample } = options;
  return {
    runId: options.runId,
    sampleId: sample.id,
    task: sample.task,
    params: sample.params,
    gold: sample.gold,
    prompt: options.prompt,
    promptChars: sample.promptChars,
    promptTokens: options.promptTokens,
    status: options.outcome.status,
    rawOutput: options.outcome.rawOutput,
    parsed: options.outcome.parsed,
    scores: options.outcome.scores,
    ...(options.usage ?? NO_MODEL_CALL),
  };
}
