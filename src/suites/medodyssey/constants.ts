export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The paper's seven context lengths, in tokens. */
export const LEVELS = [4000, 8000, 16000, 32000, 64000, 128000, 200000] as const;
/** NIAH needle depths, in percent. */
export const DEPTHS = [0, 25, 50, 75, 100] as const;
/** Published token-to-character ratios γ (tokens per character). */
export const DEFAULT_GAMMA: Record<Language, number> = { en: 0.36, zh: 1.41 };
/** Characters the ratio-mode budget keeps free for the answer. */
export const ANSWER_RESERVE_CHARS = 200;

export const COUNTING_TYPES = ['repeat', 'increase', 'shuffle', 'correction'] as const;
export type CountingType = (typeof COUNTING_TYPES)[number];

/** 4000 → "4k", 1500 → "1.5k", 200000 → "200k"; levels below 1000 stay as they are. */
export function levelName(level: number): string {
  if (level < 1000 || level % 100 !== 0) return String(level);
  return `${level / 1000}k`;
}

/**
 * Prefix of the scores medbench's own rules give to a compat-scored result where they differ
 * from the published scorer's (`own.tp`, `own.esm` …); aggregates read them to show both.
 */
export const OWN_SCORE_PREFIX = 'own.';
