/** What a model's prompt cache costs, as multiples of its input price. */
export interface CachePrice {
  /** A token read from the cache (Anthropic: 0.1; OpenAI's gpt-4.1: 0.25). */
  cachedShare: number;
  /** A token written to the cache, where the provider bills writes apart (Anthropic's 5-minute write: 1.25). */
  writeShare?: number;
  /** An explicit cache's storage, per million tokens per hour (Gemini's `cachedContents`; the pricing page's dollars). */
  storagePerMillionPerHour?: number;
}

/**
 * A provider's documented price rule: the defaults of a model's cached, cache-write and batch
 * prices when the config gives only its input and output prices.
 */
export interface ProviderPricing {
  /** The cache prices of a model id; undefined: not documented for it (no discount is assumed). */
  cache(modelId: string): CachePrice | undefined;
  /** What a batch API answer costs as a share of a sync one (0.5 where documented). */
  batchMultiplier?: number;
  /** Where the rule comes from, and when it was read (for docs and the report's note). */
  source: string;
}

/**
 * A model's cache prices by the longest of `table`'s id prefixes it starts with (after a
 * provider's own prefix such as Bedrock's region `us.` or a gateway's `openai/`); undefined when none fits.
 */
export function byModelPrefix(
  table: ReadonlyArray<readonly [prefix: string, price: CachePrice | undefined]>,
): (modelId: string) => CachePrice | undefined {
  const sorted = [...table].sort(([a], [b]) => b.length - a.length);
  return (modelId) => {
    const id = modelId.toLowerCase().split('/').at(-1)!;
    return sorted.find(([prefix]) => id.startsWith(prefix))?.[1];
  };
}
