import type { SampleParams, ScoredOutput } from './sample.js';

/** Which scoring rules to apply: medbench's own, or the published scorer's quirks. */
export type ScoringMode = 'standard' | 'compat';

/**
 * The shape of a task's gold data, checked where samples enter (a dataset file, a build). A zod
 * schema is one; core imports no package, so it names only what it calls.
 */
export interface GoldSchema<Gold> {
  safeParse(value: unknown): { success: true; data: Gold } | { success: false; error: { message: string } };
}

/** What scoring sees of a sample: its gold, already checked against the task's schema. */
export interface ScoredSample<Gold = unknown> {
  gold: Gold;
  params: SampleParams;
}

/** What a task scores: the sample, the raw output and the scoring mode. */
export interface ScoreInput<Gold = unknown> {
  sample: ScoredSample<Gold>;
  rawOutput: string;
  mode: ScoringMode;
}

/**
 * A task: how to parse and score a raw model output against a sample's gold data.
 * Builders produce the samples; the runner checks their gold with `gold` and calls `score`
 * for every response.
 */
export interface Task<Gold = unknown> {
  readonly suite: string;
  readonly name: string;
  /** Metric names this task reports, in display order. */
  readonly metrics: readonly string[];
  /** The metric a page shows first for one sample (a fraction in [0, 1]). */
  readonly primaryMetric: string;
  /**
   * How a sample's scores over `run --epochs K` become its score by default (`--epoch-reducer`
   * overrides it): majority for a task scored right or wrong (a choice, a label), mean for graded
   * scores; absent: mean.
   */
  readonly epochReducer?: 'mean' | 'majority' | 'max';
  /** The gold data every sample of this task carries. */
  readonly gold: GoldSchema<Gold>;
  /**
   * Scores of a sample that got no answer (`too_long` or `error`): wrong, and counted. A
   * function of the sample because some metrics count its gold items (KG and Table: every
   * gold item is a false negative).
   */
  failedScores(sample: ScoredSample<Gold>): Record<string, number>;
  score(input: ScoreInput<Gold>): ScoredOutput;
}
