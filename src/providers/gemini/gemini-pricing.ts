import { byModelPrefix, type ProviderPricing } from '../provider-pricing.js';

/**
 * Gemini's cached tokens (the Gemini API's and Vertex AI's pricing pages, 2025-09): Gemini 2.5
 * and later at 0.1× the input price, 2.0 and 1.5 at 0.25×; the storage of an explicit cache is
 * billed per hour apart and not counted here. Batch mode at half price.
 */
export const GEMINI_PRICING: ProviderPricing = {
  cache: byModelPrefix([
    ['gemini-', { cachedShare: 0.1 }],
    ['gemini-2.0', { cachedShare: 0.25 }],
    ['gemini-1.5', { cachedShare: 0.25 }],
  ]),
  batchMultiplier: 0.5,
  source:
    "Gemini's pricing page (2025-09): cached input 0.1× (Gemini 2.5 and later) or 0.25× (2.0, 1.5), Batch Mode 50% off",
};
