import { byModelPrefix, type ProviderPricing } from '../provider-pricing.js';

/**
 * OpenAI's cached input price as a share of the input price, by model (OpenAI's pricing page,
 * read 2025-09: gpt-4o and gpt-4o-mini 0.5, gpt-4.1 family 0.25, gpt-5 family 0.1, o1, o1-mini and
 * o3-mini 0.5, o3 and o4-mini 0.25; o1-pro and o3-pro have no cached price). Azure OpenAI prices
 * its deployments of these models alike. Writes are not billed apart.
 */
const OPENAI_CACHE = byModelPrefix([
  ['gpt-4o', { cachedShare: 0.5 }],
  ['chatgpt-4o', undefined],
  ['gpt-4.1', { cachedShare: 0.25 }],
  ['gpt-4.5', { cachedShare: 0.5 }],
  ['gpt-5', { cachedShare: 0.1 }],
  ['o1', { cachedShare: 0.5 }],
  ['o1-pro', undefined],
  ['o3', { cachedShare: 0.25 }],
  ['o3-mini', { cachedShare: 0.5 }],
  ['o3-pro', undefined],
  ['o4-mini', { cachedShare: 0.25 }],
]);

/** OpenAI's own API: the table above, and its Batch API at half price. */
export const OPENAI_PRICING: ProviderPricing = {
  cache: OPENAI_CACHE,
  batchMultiplier: 0.5,
  source: "OpenAI's pricing page (2025-09): cached input by model, Batch API 50% off",
};

/** Azure OpenAI: the same models' cached share; Global Batch deployments at half price. */
export const AZURE_OPENAI_PRICING: ProviderPricing = {
  cache: OPENAI_CACHE,
  batchMultiplier: 0.5,
  source: "Azure OpenAI's pricing page (2025-09): cached input as OpenAI's, Global Batch 50% off",
};

/**
 * Any other OpenAI-compatible server (vLLM, SGLang, a gateway): OpenAI's models keep OpenAI's
 * cached share when a gateway serves them; others have no documented cached price, nor a batch API.
 */
export const OPENAI_COMPATIBLE_PRICING: ProviderPricing = {
  cache: OPENAI_CACHE,
  source: "OpenAI's cached share for OpenAI's models; none documented for others",
};
