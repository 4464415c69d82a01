import {
  additiveReplicatesOf,
  type IntervalSettings,
  percentileInterval,
  totalsOf,
} from './uncertainty/index.js';

/** RULER's threshold: Llama-2-7B's score at 4K (85.6%), the bar every length must clear. */
export const RULER_THRESHOLD = 85.6;
/** NoLiMa's share of the model's own base score a length must keep (85%). */
export const NOLIMA_FRACTION = 0.85;

/**
 * How a length counts as effective: RULER's fixed threshold (`fixed`: the score at least
 * `threshold`), or NoLiMa's self-relative one (`relative`: at least `fraction` × the base score;
 * the base is the shortest level's score unless given, as NoLiMa's own base of 250–1K tokens).
 */
export type EffectiveLengthRule =
  | { kind: 'fixed'; threshold: number }
  | { kind: 'relative'; fraction: number; base?: number };

export interface EffectiveLength {
  /** The score a level must reach; null when the relative rule has no base to scale (none, or 0). */
  threshold: number | null;
  /** How many levels, from the shortest, all reach the threshold (0: not even the shortest). */
  passing: number;
  /** The longest of those levels; null when none passes ("below the shortest level"). */
  length: number | null;
}

/** The score a level must reach under a rule, given the scores by level (shortest first). */
export function effectiveThreshold(
  scores: ReadonlyArray<number | null>,
  rule: EffectiveLengthRule,
): number | null {
  if (rule.kind === 'fixed') return rule.threshold;
  const base = rule.base ?? scores[0] ?? null;
  return base === null || !Number.isFinite(base) || base <= 0 ? null : rule.fraction * base;
}

/**
 * The effective length of a model on scores by level (ascending levels; a score null or NaN for a
 * level not measured, which does not pass): the longest level up to which every level's score is
 * at least the threshold. Both papers print "the maximum length" that passes; neither of their
 * tables has a longer level passing after a shorter one failed, and medbench counts the levels
 * from the shortest, so a level passing again after a failure does not lengthen it.
 */
export function effectiveLength(
  levels: readonly number[],
  scores: ReadonlyArray<number | null>,
  rule: EffectiveLengthRule,
): EffectiveLength {
  if (levels.length !== scores.length)
    throw new RangeError(`effectiveLength: ${levels.length} levels but ${scores.length} scores`);
  const threshold = effectiveThreshold(scores, rule);
  let passing = 0;
  if (threshold !== null) {
    while (passing < levels.length) {
      const score = scores[passing];
      if (score === null || score === undefined || !(score >= threshold)) break;
      passing++;
    }
  }
  return { threshold, passing, length: passing === 0 ? null : levels[passing - 1]! };
}

/** An effective length with its interval, in levels passed and in tokens. */
export interface EffectiveLengthEstimate extends EffectiveLength {
  /**
   * The 95% percentile bootstrap interval of `passing` over resampled units (lower bound rounded
   * down, upper up, to whole levels), and the lengths they stand for; absent without intervals.
   */
  interval?: {
    lowerPassing: number;
    upperPassing: number;
    lower: number | null;
    upper: number | null;
    level: number;
    method: 'bootstrap' | 'none';
    resamples: number | null;
    seed: number | null;
  };
}

/**
 * The effective lengths under several rules of per-level scores that are statistics of additive
 * unit sums (one vector per unit: `dims` numbers per level, level after level), and their bootstrap
 * intervals from one set of resamples: each resample of the units re-scores every level (`scoreOf`
 * of the totals at that level's offset; null: nothing counted) and re-applies every rule, the base
 * of a relative rule included.
 */
export function effectiveLengthEstimates(options: {
  levels: readonly number[];
  unitSums: ReadonlyArray<ArrayLike<number>>;
  dims: number;
  scoreOf: (totals: ArrayLike<number>, offset: number) => number | null;
  rules: readonly EffectiveLengthRule[];
  intervals?: IntervalSettings;
}): EffectiveLengthEstimate[] {
  const { levels, dims, rules, unitSums } = options;
  const scoresOf = (totals: ArrayLike<number>) =>
    levels.map((_, index) => options.scoreOf(totals, index * dims));
  const totals = totalsOf(unitSums);
  const scores = scoresOf(totals.length > 0 ? totals : new Float64Array(levels.length * dims));
  const estimates = rules.map((rule) => effectiveLength(levels, scores, rule));
  if (!options.intervals || unitSums.length === 0) return estimates;
  // One pass over the resamples for every rule: additiveReplicatesOf calls the statistics of a
  // round in order on that round's totals, so the first rescoring serves them all.
  let roundScores: Array<number | null> = [];
  const statistics = rules.map((rule, index) => (sums: Float64Array) => {
    if (index === 0) roundScores = scoresOf(sums);
    return effectiveLength(levels, roundScores, rule).passing;
  });
  let replicates: Float64Array[] | undefined;
  const replicatesOf = (settings: { resamples: number; seed: number }) => {
    replicates ??= additiveReplicatesOf(unitSums, statistics, settings);
    return replicates;
  };
  const lengthAt = (passing: number) => (passing === 0 ? null : levels[passing - 1]!);
  return estimates.map((estimate, index) => {
    const { interval } = percentileInterval(
      {
        units: unitSums.length,
        n: unitSums.length,
        estimate: () => estimate.passing,
        replicates: (settings) => replicatesOf(settings)[index]!,
      },
      options.intervals,
    );
    const lowerPassing = Math.floor(interval.lower);
    const upperPassing = Math.ceil(interval.upper);
    return {
      ...estimate,
      interval: {
        lowerPassing,
        upperPassing,
        lower: lengthAt(lowerPassing),
        upper: lengthAt(upperPassing),
        level: interval.level,
        method: interval.method === 'bootstrap' ? 'bootstrap' : 'none',
        resamples: interval.resamples,
        seed: interval.seed,
      },
    };
  });
}
