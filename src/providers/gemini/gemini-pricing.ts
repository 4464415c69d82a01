import { byModelPrefix, type ProviderPricing } from '../provider-pricing.js';

/**
 * Gemini's cached tokens (the Gemini API's and Vertex AI's pricing pages, 2025-09): Gemini 2.5
 * and later at 0.1× the input price, 2.0 and 1.5 at 0.25×. An explicit cache's storage (the
 * Gemini API's pricing page): $4.50 per million tokens per hour for the Pro models, $1.00 for the
 * others. Batch mode at half price.
 */
export const GEMINI_PRICING: ProviderPricing = {
  cache: byModelPrefix([
    ['gemini-', { cachedShare: 0.1, storagePerMillionPerHour: 1 }],
    ['gemini-2.5-pro', { cachedShare: 0.1, storagePerMillionPerHour: 4.5 }],
    ['gemini-3-pro', { cachedShare: 0.1, storagePerMillionPerHour: 4.5 }],
    ['gemini-3.1-pro', { cachedShare: 0.1, storagePerMillionPerHour: 4.5 }],
    ['gemini-2.0', { cachedShare: 0.25, storagePerMillionPerHour: 1 }],
    ['gemini-1.5', { cachedShare: 0.25 }],
  ]),
  batchMultiplier: 0.5,
  source:
    "Gemini's pricing page (2025-09): cached input 0.1× (Gemini 2.5 and later) or 0.25× (2.0, 1.5), explicit-cache storage $4.50 (Pro) or $1.00 per million tokens per hour, Batch Mode 50% off",
};
