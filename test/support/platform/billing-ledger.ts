/** Dollars per million tokens, as a provider's price page lists them for one model. */
export interface PlatformPrices {
  inputPerMillion: number;
  outputPerMillion: number;
  /** Input tokens read from the prompt cache. */
  cachedInputPerMillion: number;
  /** Input tokens written to the prompt cache (OpenAI and Gemini's implicit cache: the input price). */
  cacheWritePerMillion: number;
  /** Anthropic: tokens written with the 1-hour lifetime (default: the 5-minute write price). */
  cacheWriteHourPerMillion?: number;
  /** Factor on every token price of a request answered through the batch API. */
  batchMultiplier: number;
  /** Gemini's explicit cache: dollars per million cached tokens per hour held. */
  storagePerMillionPerHour?: number;
}

/**
 * Defaults, one example model each, from the providers' pricing pages as read on 2026-11-27:
 * - OpenAI gpt-4.1: $2.00 input, $0.50 cached input, $8.00 output; Batch API 50% off; no cache-write
 *   charge (caching is automatic: written tokens are billed as input).
 * - Azure OpenAI gpt-4.1 (Global): the same list prices; Global Batch 50% off.
 * - Anthropic claude-sonnet-4-5: $3 input, $3.75 5-minute and $6 1-hour cache write, $0.30 cache hit, $15 output;
 *   Message Batches 50% off, stacking with the caching prices.
 * - Gemini gemini-2.5-flash: $0.30 input, $0.03 cached, $2.50 output, $1.00 per million tokens per
 *   hour of explicit-cache storage; Batch Mode 50% off.
 * - Amazon Bedrock, Anthropic Claude Sonnet 4.5 on demand: $3 input, $15 output, $3.75 5-minute and
 *   $6 1-hour cache write, $0.30 cache read; batch inference at 50% of the on-demand price.
 */
const GPT_4_1: PlatformPrices = {
  inputPerMillion: 2,
  outputPerMillion: 8,
  cachedInputPerMillion: 0.5,
  cacheWritePerMillion: 2,
  batchMultiplier: 0.5,
};

const CLAUDE_SONNET_4_5: PlatformPrices = {
  inputPerMillion: 3,
  outputPerMillion: 15,
  cachedInputPerMillion: 0.3,
  cacheWritePerMillion: 3.75,
  cacheWriteHourPerMillion: 6,
  batchMultiplier: 0.5,
};

export const DEFAULT_PRICES = {
  openai: GPT_4_1,
  'azure-openai': GPT_4_1,
  anthropic: CLAUDE_SONNET_4_5,
  gemini: {
    inputPerMillion: 0.3,
    outputPerMillion: 2.5,
    cachedInputPerMillion: 0.03,
    cacheWritePerMillion: 0.3,
    batchMultiplier: 0.5,
    storagePerMillionPerHour: 1,
  },
  bedrock: CLAUDE_SONNET_4_5,
} satisfies Record<string, PlatformPrices>;

/** Whether a request is billed at the sync or the batch price, and the batch line it came from. */
export interface Billing {
  mode: 'sync' | 'batch';
  customId?: string;
}

/** The tokens one answered request is billed for; `promptTokens` counts every prompt token. */
export interface BilledUsage {
  promptTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  /** Of cacheWriteTokens, those written with a 1-hour lifetime (Anthropic). */
  cacheWriteHourTokens?: number;
  outputTokens: number;
}

export interface LedgerEntry extends BilledUsage {
  mode: 'sync' | 'batch' | 'storage';
  model: string;
  /** The batch line's custom id (batch entries). */
  customId?: string;
  /** Dollars. */
  cost: number;
}

/** Every charge a platform made: the independent source of truth medbench's cost figures are checked against. */
export class BillingLedger {
  readonly entries: LedgerEntry[] = [];

  constructor(readonly prices: PlatformPrices) {}

  /** Bills one answered request and returns its entry. */
  charge(billing: Billing, model: string, usage: BilledUsage): LedgerEntry {
    const prices = this.prices;
    const uncached = usage.promptTokens - usage.cachedInputTokens - usage.cacheWriteTokens;
    const hour = usage.cacheWriteHourTokens ?? 0;
    const dollars =
      (uncached * prices.inputPerMillion +
        usage.cachedInputTokens * prices.cachedInputPerMillion +
        (usage.cacheWriteTokens - hour) * prices.cacheWritePerMillion +
        hour * (prices.cacheWriteHourPerMillion ?? prices.cacheWritePerMillion) +
        usage.outputTokens * prices.outputPerMillion) /
      1_000_000;
    const entry: LedgerEntry = {
      ...usage,
      ...billing,
      model,
      cost: dollars * (billing.mode === 'batch' ? prices.batchMultiplier : 1),
    };
    this.entries.push(entry);
    return entry;
  }

  /** Bills holding `tokens` in an explicit cache for `milliseconds`. */
  chargeStorage(model: string, tokens: number, milliseconds: number): LedgerEntry {
    const hours = milliseconds / 3_600_000;
    const entry: LedgerEntry = {
      mode: 'storage',
      model,
      promptTokens: 0,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 0,
      cost: (tokens * hours * (this.prices.storagePerMillionPerHour ?? 0)) / 1_000_000,
    };
    this.entries.push(entry);
    return entry;
  }

  /** Sums of tokens and dollars over every entry. */
  totals(): BilledUsage & { cost: number; requests: number } {
    const sum = { promptTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, cost: 0 };
    for (const entry of this.entries) {
      sum.promptTokens += entry.promptTokens;
      sum.cachedInputTokens += entry.cachedInputTokens;
      sum.cacheWriteTokens += entry.cacheWriteTokens;
      sum.outputTokens += entry.outputTokens;
      sum.cost += entry.cost;
    }
    return { ...sum, requests: this.entries.filter((entry) => entry.mode !== 'storage').length };
  }
}
