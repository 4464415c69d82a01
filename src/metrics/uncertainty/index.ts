/** Uncertainty of every score: one pure, browser-safe module for the reports, `compare` and the viewer. */
export { bootstrapRanks, type RankInterval, ranksOf } from './bootstrap-ranks.js';
export {
  additiveBootstrap,
  additiveReplicates,
  additiveReplicatesOf,
  clusterBootstrap,
  groupByUnit,
  percentileInterval,
  resampledUnits,
  totalsOf,
} from './cluster-bootstrap.js';
export { endOfRangeInterval } from './end-of-range.js';
export { formatInterval, scaleInterval } from './format-interval.js';
export {
  type BootstrapOptions,
  bootstrapSettings,
  DEFAULT_LEVEL,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  type Interval,
  type IntervalMethod,
  type IntervalSettings,
  percentileBounds,
  pointInterval,
  quantileSorted,
  type ReportInterval,
  reportInterval,
} from './interval.js';
export {
  bootstrapMean,
  bootstrapMicroScores,
  type ClusterOptions,
  type Confusion,
  meanInterval,
  microScores,
} from './mean-interval.js';
export { meanOfMeansInterval, type Stratum, stratumOf } from './mean-of-means.js';
export { minimumDetectableDifference, standardDeviation } from './minimum-detectable-difference.js';
export { normalQuantile } from './normal-quantile.js';
export {
  bootstrapPValue,
  holmAdjust,
  logChoose,
  mcnemarExact,
  type PairedInterval,
  pairedAdditiveBootstrap,
  pairedBootstrap,
} from './paired-tests.js';
export { type EpochReducer, passAtK, reduceEpochs } from './pass-at-k.js';
export { seededRandom, seedOf } from './seeded-random.js';
export { wilsonInterval } from './wilson.js';
