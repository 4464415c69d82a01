import { DEFAULT_LEVEL, normalQuantile } from '../uncertainty/index.js';

/**
 * What a prediction-powered estimate needs: the human grade and the judge's score of each item a
 * person graded (parallel), and the judge's scores of the items nobody graded (a disjoint set).
 */
export interface PredictionPoweredInput {
  /** Human grades of the labelled items (Y). */
  human: readonly number[];
  /** The judge's scores of the same labelled items, in the same order (f(X)). */
  judge: readonly number[];
  /** The judge's scores of the unlabelled items (f(X̃)); not the labelled ones again. */
  unlabelledJudge: readonly number[];
}

export interface PredictionPoweredOptions {
  /** Confidence level (default 0.95). */
  level?: number;
  /**
   * The power-tuning weight λ on the judge: 1 = classic PPI (Angelopoulos et al. 2023), 0 = the
   * human grades alone, `tuned` = PPI++'s plug-in optimum clipped to [0, 1] (Angelopoulos, Duchi &
   * Zrnic 2023). Default `tuned`.
   */
  lambda?: number | 'tuned';
}

/** A mean with its normal (CLT) interval. */
export interface NormalInterval {
  estimate: number;
  lower: number;
  upper: number;
  level: number;
  standardError: number;
}

export interface PredictionPoweredEstimate extends NormalInterval {
  method: 'ppi' | 'ppi++';
  /** The λ used (1 for classic PPI). */
  lambda: number;
  /** Labelled items (n) and unlabelled items (N). */
  labelled: number;
  unlabelled: number;
  /** The mean of the judge's scores over the unlabelled items, uncorrected (biased when the judge is). */
  judgeMean: number;
  /** The labelled items' mean judge − human difference (the rectifier; λ = 1). */
  bias: number;
  /** The classical estimate from the human grades alone, mean(Y) ± z·s(Y)/√n: what PPI improves on. */
  labelledOnly: NormalInterval;
}

const mean = (values: ArrayLike<number>) => {
  let sum = 0;
  for (let index = 0; index < values.length; index++) sum += values[index]!;
  return sum / values.length;
};

/** Sample covariance (n − 1) of two parallel series. */
function covariance(first: ArrayLike<number>, second: ArrayLike<number>): number {
  const firstMean = mean(first);
  const secondMean = mean(second);
  let sum = 0;
  for (let index = 0; index < first.length; index++)
    sum += (first[index]! - firstMean) * (second[index]! - secondMean);
  return sum / (first.length - 1);
}

const variance = (values: ArrayLike<number>) => covariance(values, values);

function checkScores(name: string, values: readonly number[]): void {
  if (values.length < 2)
    throw new RangeError(`prediction-powered inference needs at least 2 ${name}, got ${values.length}`);
  const bad = values.findIndex((value) => !Number.isFinite(value));
  if (bad >= 0) throw new RangeError(`${name}[${bad}] is not a finite number: ${values[bad]}`);
}

function normalInterval(estimate: number, standardError: number, level: number): NormalInterval {
  const half = normalQuantile((1 + level) / 2) * standardError;
  return { estimate, lower: estimate - half, upper: estimate + half, level, standardError };
}

/**
 * PPI++'s λ for a mean: Cov(Y, f) / ((1 + n/N) · Var(f)), the covariance over the labelled items,
 * the variance of the judge's scores over all n + N items, clipped to [0, 1] (as ppi_py does); 0
 * when the judge's scores do not vary.
 */
export function tunedLambda(input: PredictionPoweredInput): number {
  const all = [...input.judge, ...input.unlabelledJudge];
  const spread = variance(all);
  if (!(spread > 0)) return 0;
  const n = input.human.length;
  const lambda = covariance(input.human, input.judge) / ((1 + n / input.unlabelledJudge.length) * spread);
  return Math.min(1, Math.max(0, lambda));
}

/**
 * The prediction-powered mean of a score (Angelopoulos et al. 2023, Science 382: 669–674): the
 * judge's mean over the N unlabelled items, corrected by its mean error on the n items people
 * graded. With weight λ (PPI++):
 *
 *   θ̂ = λ · mean(f(X̃)) + mean(Y − λ·f(X)),
 *   se² = λ² · s²(f(X̃)) / N + s²(Y − λ·f(X)) / n   (sample variances, n − 1),
 *   interval θ̂ ± z₁₋α/₂ · se.
 *
 * λ = 1 is classic PPI: mean(f(X̃)) − mean(f(X) − Y). Valid for any judge, however biased (the
 * labelled items must be a random subset of all items, graded independently of the judge); the
 * better the judge tracks people, the narrower the interval.
 */
export function predictionPoweredMean(
  input: PredictionPoweredInput,
  options: PredictionPoweredOptions = {},
): PredictionPoweredEstimate {
  const level = options.level ?? DEFAULT_LEVEL;
  if (!(level > 0 && level < 1))
    throw new RangeError(`confidence level must lie strictly between 0 and 1, got ${level}`);
  checkScores('human grades', input.human);
  checkScores('judge scores of the labelled items', input.judge);
  checkScores('judge scores of the unlabelled items', input.unlabelledJudge);
  if (input.human.length !== input.judge.length)
    throw new RangeError(
      `${input.human.length} human grades for ${input.judge.length} judge scores of the labelled items: pass both for the same items, in the same order`,
    );
  const choice = options.lambda ?? 'tuned';
  if (choice !== 'tuned' && !Number.isFinite(choice))
    throw new RangeError(`lambda must be a number or 'tuned', got ${choice}`);
  const lambda = choice === 'tuned' ? tunedLambda(input) : choice;
  const n = input.human.length;
  const N = input.unlabelledJudge.length;
  const rectifier = input.human.map((grade, index) => grade - lambda * input.judge[index]!);
  const judgeMean = mean(input.unlabelledJudge);
  const estimate = lambda * judgeMean + mean(rectifier);
  const standardError = Math.sqrt(
    (lambda ** 2 * variance(input.unlabelledJudge)) / N + variance(rectifier) / n,
  );
  return {
    ...normalInterval(estimate, standardError, level),
    method: choice === 'tuned' ? 'ppi++' : 'ppi',
    lambda,
    labelled: n,
    unlabelled: N,
    judgeMean,
    bias: mean(input.judge) - mean(input.human),
    labelledOnly: normalInterval(mean(input.human), Math.sqrt(variance(input.human) / n), level),
  };
}
