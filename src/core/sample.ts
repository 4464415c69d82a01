import type { ChatMessage } from './chat-model.js';

/** Parameters that place a sample in a report grid (language, length level, depth …). */
export type SampleParams = Record<string, string | number | boolean | null>;

/** One built, model-independent evaluation item, as stored in a dataset file. */
export interface Sample {
  id: string;
  suite: string;
  task: string;
  params: SampleParams;
  /** The full user prompt; identical for every model (maximum identical context). */
  prompt: string;
  /**
   * The whole conversation when a task sends more than one user message (system prompt,
   * few-shot turns, then `prompt` as the last user turn). Absent: one user message, `prompt`.
   */
  messages?: ChatMessage[];
  promptChars: number;
  /** Token count per tokenizer name: of `prompt`, or of every message's content when `messages` is set. */
  promptTokens: Record<string, number>;
  /** Task-specific gold data (accepted answers, counts, …). */
  gold: unknown;
  /** Extra data a scorer or viewer may need (needle text, insert offsets …). */
  meta?: Record<string, unknown>;
  /** What this sample asks of generation beyond the model's own settings (a protocol's limits). */
  generation?: {
    maxOutputTokens?: number;
    /** The protocol's stop sequences (added to the model's own). */
    stop?: string[];
    /** Keep only the last this many prompt tokens, when the model can truncate (else too_long gating). */
    truncatePromptTokens?: number;
  };
  /**
   * `run --epochs K`: which of the K answers this is (from 1), and the provider seed its request
   * carries (absent: the provider takes none, its temperature varies the answers). Set by the run
   * for epochs after the first only; never in a dataset file.
   */
  epoch?: { index: number; seed?: number };
}

/** A result's status, as the spec defines it. */
export type SampleStatus = 'ok' | 'bad_format' | 'too_long' | 'error';

/** Scores of one sample: metric name → value (0/1 for correctness, or a number). */
export type SampleScores = Record<string, number>;

/** A task's reading of one raw output: its status, the parsed answer and the scores. */
export interface ScoredOutput {
  status: 'ok' | 'bad_format';
  /** The parsed answer (JSON value), or the empty value when the format was wrong. */
  parsed: unknown;
  scores: SampleScores;
  /** How the score came about (normalised forms, the answer that matched), where the task says. */
  explanation?: SampleExplanation;
}

/** How one sample's score came about, in the scorer's own terms (the sample page shows it). */
export interface SampleExplanation {
  /** Per metric: the prediction and the gold answers as the scorer compared them, normalised. */
  normalised?: Array<{ metric: string; prediction: string; gold: string[] }>;
  /** Per metric: the gold answer or alternative that matched (absent: none did). */
  matched?: Record<string, string>;
  /** Retrieval: the top of the ranking, with each text's rank, score and whether it is a target. */
  retrieved?: Array<{ rank: number; text: string; score: number | null; relevant: boolean }>;
}
