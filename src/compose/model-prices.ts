import type { ProviderPricing } from '../providers/provider-pricing.js';
import type { Prices } from '../runner/model-binding.js';

/**
 * A model's prices as a run uses them: the config's, and where it leaves out the cached-read,
 * cache-write or batch price, the provider's documented rule for the model (its descriptor's
 * `pricing`). A price neither gives is left out: `priceAnswer` then assumes no discount, and the
 * report says so where cached tokens were priced at the input price.
 */
export function modelPrices(
  configured: Prices | undefined,
  pricing: ProviderPricing | undefined,
  modelId: string,
): Prices | undefined {
  if (!configured) return undefined;
  const rule = pricing?.cache(modelId);
  const cached = configured.cachedInputPerMillion ?? scaled(configured.inputPerMillion, rule?.cachedShare);
  const write = configured.cacheWritePerMillion ?? scaled(configured.inputPerMillion, rule?.writeShare);
  const batch = configured.batchMultiplier ?? pricing?.batchMultiplier;
  const storage = configured.cacheStoragePerMillionPerHour ?? rule?.storagePerMillionPerHour;
  return {
    inputPerMillion: configured.inputPerMillion,
    outputPerMillion: configured.outputPerMillion,
    ...(cached !== undefined ? { cachedInputPerMillion: cached } : {}),
    ...(write !== undefined ? { cacheWritePerMillion: write } : {}),
    ...(batch !== undefined ? { batchMultiplier: batch } : {}),
    ...(storage !== undefined ? { cacheStoragePerMillionPerHour: storage } : {}),
  };
}

/** A share of a price, rounded to drop binary noise (0.1 × 3 is 0.3, not 0.30000000000000004). */
function scaled(price: number, share: number | undefined): number | undefined {
  return share === undefined ? undefined : Number((price * share).toPrecision(12));
}
