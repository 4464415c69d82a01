import { byModelPrefix, type CachePrice, type ProviderPricing } from '../provider-pricing.js';

/** Claude's prompt cache (Anthropic's pricing page): a read 0.1× the input price, a 5-minute write 1.25×. */
export const CLAUDE_CACHE: CachePrice = { cachedShare: 0.1, writeShare: 1.25 };

/** Anthropic's API: every Claude model caches alike; the Message Batches API at half price. */
export const ANTHROPIC_PRICING: ProviderPricing = {
  cache: () => CLAUDE_CACHE,
  batchMultiplier: 0.5,
  source:
    "Anthropic's pricing page (2025-09): cache read 0.1×, 5-minute cache write 1.25× the input price, Message Batches 50% off",
};

/**
 * Bedrock: Claude caches as on Anthropic's API; Amazon Nova reads at 0.25× with no write charge
 * (Bedrock's pricing page); batch inference at half the on-demand price. Model ids may carry an
 * inference profile's region (`us.anthropic.claude-…`).
 */
const BEDROCK_CACHE = byModelPrefix([
  ['anthropic.claude', CLAUDE_CACHE],
  ['amazon.nova', { cachedShare: 0.25, writeShare: 1 }],
]);

/**
 * The foundation model a Bedrock model id names: an inference profile's ARN ends in its id, a
 * profile id starts with its geography (`us.anthropic.claude-…` → `anthropic.claude-…`).
 */
export function bedrockFoundationModel(modelId: string): string {
  return modelId
    .split('/')
    .at(-1)!
    .replace(/^(?:us|eu|apac|jp|au|global|us-gov)\./, '');
}

export const BEDROCK_PRICING: ProviderPricing = {
  cache: (modelId) => BEDROCK_CACHE(bedrockFoundationModel(modelId)),
  batchMultiplier: 0.5,
  source:
    "Bedrock's pricing page (2025-09): Claude as Anthropic's (read 0.1×, write 1.25×), Nova read 0.25×, batch inference 50% off",
};
