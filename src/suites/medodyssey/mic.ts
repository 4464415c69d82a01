import { MedbenchError } from '../../core/errors.js';
import type { Tokenizer } from '../../core/tokenizer.js';
import type { CorpusTokenIndex } from '../../tokenizers/corpus-token-index.js';
import type { PromptPart } from '../../tokenizers/prompt-parts.js';

/** Python's float floor division `a // b` (fmod-based, so results match the published build). */
export function pythonFloorDivide(dividend: number, divisor: number): number {
  const remainder = dividend % divisor;
  const quotient = (dividend - remainder) / divisor;
  let floor = Math.floor(quotient);
  if (quotient - floor > 0.5) floor += 1;
  return floor;
}

/** `ratio` mode: the character budget of a prompt at level N is floor(N / γ). */
export function ratioCharBudget(level: number, gamma: number): number {
  return pythonFloorDivide(level, gamma);
}

export interface FitResult {
  haystackChars: number;
  /** Token count per tokenizer of the fitted prompt, from the fast counter. */
  tokens: Record<string, number>;
}

/**
 * `exact` mode: the largest haystack length H (in corpus code points) whose assembled
 * prompt has at most `limit` tokens under every index's tokenizer. Token counts are
 * nearly monotone in H but not strictly (a longer text can merge into fewer tokens), so
 * after the binary search the next `lookahead` lengths are checked too.
 */
export function fitHaystackChars(options: {
  indexes: readonly CorpusTokenIndex[];
  assemble: (haystackChars: number) => readonly PromptPart[];
  limit: number;
  maxHaystackChars: number;
  lookahead?: number;
}): FitResult | undefined {
  const { indexes, assemble, limit, maxHaystackChars } = options;
  const lookahead = options.lookahead ?? 16;
  const countsAt = (haystackChars: number): number[] => {
    const parts = assemble(haystackChars);
    return indexes.map((index) => index.count(parts));
  };
  const fits = (counts: number[]) => counts.every((count) => count <= limit);
  if (!fits(countsAt(0))) return undefined;
  let low = 0;
  let high = maxHaystackChars;
  if (fits(countsAt(high))) low = high;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(countsAt(middle))) low = middle;
    else high = middle;
  }
  let best = low;
  for (let candidate = low + 2; candidate <= Math.min(maxHaystackChars, low + lookahead); candidate++) {
    if (fits(countsAt(candidate))) best = candidate;
  }
  const counts = countsAt(best);
  return {
    haystackChars: best,
    tokens: Object.fromEntries(indexes.map((index, position) => [index.tokenizer.name, counts[position]!])),
  };
}

/** One fitting of a sample: all tokenizers together, or (per-model) each tokenizer alone. */
export interface FitGroup {
  /** Appended to the sample id (`@tokenizer` in per-model mode). */
  suffix: string;
  fitFor: string | undefined;
  tokenizers: readonly Tokenizer[];
}

export function fitGroups(
  mic: 'ratio' | 'exact' | 'per-model',
  tokenizers: readonly Tokenizer[],
): FitGroup[] {
  return mic === 'per-model'
    ? tokenizers.map((tokenizer) => ({
        suffix: `@${tokenizer.name}`,
        fitFor: tokenizer.name,
        tokenizers: [tokenizer],
      }))
    : [{ suffix: '', fitFor: undefined, tokenizers }];
}

/** `fitHaystackChars`, or a USAGE error naming the sample when even an empty context is too long. */
export function fitOrFail(options: {
  indexes: readonly CorpusTokenIndex[];
  assemble: (haystackChars: number) => readonly PromptPart[];
  limit: number;
  maxHaystackChars: number;
  sampleId: string;
}): FitResult {
  const fitted = fitHaystackChars(options);
  if (!fitted) {
    throw new MedbenchError({
      code: 'USAGE',
      message: `Level ${options.limit} is too small for ${options.sampleId}: its fixed text alone exceeds ${options.limit} tokens.`,
      hint: 'Choose larger levels (--levels).',
    });
  }
  return fitted;
}
