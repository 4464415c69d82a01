/**
 * Agreement of a model judge with people, and a judge-scored mean corrected by a few human grades:
 * Cohen's (weighted) kappa, intraclass correlations, per-criterion kappa, prediction-powered
 * inference. Pure and browser-safe: imports only its own files and the shared statistics
 * (metrics/uncertainty/), whose bootstrap gives the kappa intervals.
 */
export {
  type Category,
  cohenKappa,
  KAPPA_UNDEFINED_LIMIT,
  type KappaEstimate,
  type KappaOptions,
  type KappaWeights,
  kappaOfTable,
  kappaWeightMatrix,
} from './cohen-kappa.js';
export { type CriterionAgreement, type CriterionGrade, criterionAgreement } from './criterion-agreement.js';
export { fDistribution, fQuantile, logGamma } from './f-distribution.js';
export {
  type IccEstimate,
  type IntraclassCorrelation,
  intraclassCorrelation,
  type MeanSquares,
  meanSquaresOf,
} from './intraclass-correlation.js';
export {
  type NormalInterval,
  type PredictionPoweredEstimate,
  type PredictionPoweredInput,
  type PredictionPoweredOptions,
  predictionPoweredMean,
  tunedLambda,
} from './prediction-powered-mean.js';
