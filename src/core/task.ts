import type { Sample, ScoredOutput } from './sample.js';

/** Which scoring rules to apply: medbench's own, or the published scorer's quirks. */
export type ScoringMode = 'standard' | 'compat';

export interface ScoreInput {
  sample: Pick<Sample, 'gold' | 'params'>;
  rawOutput: string;
  mode: ScoringMode;
}

/**
 * A task: how to parse and score a raw model output against a sample's gold data.
 * Builders produce the samples; the runner calls `score` for every response.
 */
export interface Task {
  readonly suite: string;
  readonly name: string;
  /** Metric names this task reports, in display order. */
  readonly metrics: readonly string[];
  /**
   * Scores of a sample that got no answer (`too_long` or `error`): wrong, and counted. A
   * function of the sample because some metrics count its gold items (KG and Table: every
   * gold item is a false negative).
   */
  failedScores(sample: Pick<Sample, 'gold' | 'params'>): Record<string, number>;
  score(input: ScoreInput): ScoredOutput;
}
