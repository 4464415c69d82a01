import type { Prices } from './model-binding.js';

/** An answer's token counts, as the response cache keeps them (null: not counted). */
export interface PricedTokens {
  /** Every prompt token: plain, read from the prompt cache and written to it. */
  inputTokens: number | null;
  outputTokens: number | null;
  /** Of `inputTokens`, those read from the provider's prompt cache. */
  cachedInputTokens?: number | null;
  /** Of `inputTokens`, those written to the provider's prompt cache. */
  cacheWriteTokens?: number | null;
}

/** What an answer cost, and what it costs at list price. */
export interface AnswerPrice {
  /**
   * What was paid: plain input tokens at the input price, cached ones at the cached price,
   * written ones at the cache-write price, output at the output price; times the batch
   * multiplier for a batch answer.
   */
  cost: number;
  /** Every input token at the input price and every output token at the output price: no cache, no batch. */
  listCost: number;
}

/**
 * Prices one answer. A cached or cache-write price the prices lack is the input price (no
 * discount or surcharge assumed); a batch answer without a batch multiplier costs as a sync one.
 */
export function priceAnswer(prices: Prices, tokens: PricedTokens, options: { batch: boolean }): AnswerPrice {
  const input = tokens.inputTokens ?? 0;
  const output = tokens.outputTokens ?? 0;
  const cached = tokens.cachedInputTokens ?? 0;
  const written = tokens.cacheWriteTokens ?? 0;
  const plain = Math.max(0, input - cached - written);
  const paid =
    plain * prices.inputPerMillion +
    cached * (prices.cachedInputPerMillion ?? prices.inputPerMillion) +
    written * (prices.cacheWritePerMillion ?? prices.inputPerMillion) +
    output * prices.outputPerMillion;
  const multiplier = options.batch ? (prices.batchMultiplier ?? 1) : 1;
  return {
    cost: (paid * multiplier) / 1e6,
    listCost: (input * prices.inputPerMillion + output * prices.outputPerMillion) / 1e6,
  };
}
